"""A model of how Argo Workflows turns a WorkflowTemplate into pods and the objects its resource
templates create, written from Argo's source (v3.7 and v4.1; paths in argoproj/argo-workflows),
and of kubelet's `$(VAR)` expansion. The flowc tests run flowc's output through it.

What Argo does to text, in order, as modelled here:
  - Every substitution is util/template Replace: the object is serialised with Go's
    encoding/json (struct fields in Go's order, HTML characters escaped, map keys sorted), the
    JSON text must be valid, valyala/fasttemplate pairs each `{{` with the next `}}` anywhere in
    that text (a `{{` without one is an error), and each tag is resolved
    (util/template/template.go): `{{=expr}}` by expressionReplace (expression_template.go: the
    expression is JSON-unquoted, compiled by expr-lang in the environment of
    util/expr/env/env.go GetFuncMap (tests/py/argo_expr.py), its result JSON-escaped into the
    text; unresolved it is written back when allowed), any other tag by simpleReplace
    (simple_template.go: looked up trimmed, then the nested tag after the last `{{`; the value
    written with strconv.Quote; unresolved written back when allowed, else "failed to
    resolve"). The result must be valid JSON again.
  - A DAG task (workflow/controller/dag.go executeDAGTask): resolveDependencyReferences replaces
    over the task's JSON with the globals and the DAG's scope, unresolved allowed; expandTask
    then marshals the task, withItems and withParam still in it, and for each item
    operator.go processItem replaces over that text with the item added, strictly.
  - A template (operator.go executeTemplate; workflow/common/util.go ProcessArgs and
    SubstituteParams): inputs from the task's arguments, then two passes, the globals and
    locals (pod.name, unless the template retries), then the inputs (v3: the inputs alone;
    v4: with the first pass's map). A template with a retryStrategy is substituted again with
    the retry's locals (pod.name, retries, lastRetry.*).
  - A container template's pod (workflowpod.go createWorkflowPod, substitutePodParams): the
    template, as JSON, in the ARGO_TEMPLATE env of the init and wait containers, the main
    container from the template; the pod's JSON replaced once more with the globals, the
    inputs and pod.name.
  - A resource template (operator.go executeResource): the manifest parsed (sigs.k8s.io/yaml),
    given the workflow as owner and written back as YAML; the pod that creates it carries the
    template in ARGO_TEMPLATE, and its JSON is replaced like any pod's; argoexec creates the
    manifest as it finds it there (action create) or deletes what it names (action delete:
    cmd/argoexec/commands/resource.go, `kubectl delete --ignore-not-found -f`).
    The pod's spec.activeDeadlineSeconds is the template's (workflowpod.go createWorkflowPod).
  - How a node ends (given: `outcomes`, below): a resource template's pod Succeeds, or Fails
    (its gang failed, or kubelet ended the pod at its deadline: argoexec deletes nothing,
    workflow/executor/resource.go WaitResource only returns). A DAG fails when a task fails.
    A DAG task's exit hook (hooks.exit) runs once the task has completed, when its
    `expression` is true in the DAG's scope with `tasks.<name>.status` (dag.go
    executeDAGTask, hooks.go runOnExitNode); the task completes after the hook.
  - A resource template that creates a Workflow: the controller runs it as a Workflow of its
    own, from the WorkflowTemplate its workflowTemplateRef names, with its arguments and
    spec.serviceAccountName (Workflow.create_workflow); the creating node ends when the child's
    status.phase meets the success or failure condition. A Workflow's spec.onExit runs once its
    entrypoint is done. A delete with `flags` and no manifest deletes the run's Workflows its
    `--selector` matches, the controller's `workflows.argoproj.io/completed` label included, and
    the garbage collector what they own (Workflow.delete_selected). `argo stop`/`terminate`
    mid-run (`stop`): the submitted Workflow's pods are killed, its parts' Workflows go on
    Running, and its onExit runs under Stop only (Workflow.run).
  - Retries (operator.go executeTemplate, any template type): the retry node's children
    `<node>(<n>)`, each substituted again with pod.name, retries and lastRetry.*, one after
    another until one succeeds or `limit` more have failed. `node.name` is a local of the
    first pass of every template: the retry node's name when it retries.
  - Which template a name means (workflow/templateresolution/context.go): a task's `template`
    is looked up in the WorkflowTemplate that holds the template naming it (GetTemplateByName
    on the context's base); a `templateRef` in the WorkflowTemplate it names
    (GetTemplateFromRef), which becomes the base for the names in that template
    (WithTemplateHolder). A run starts at the entrypoint of the WorkflowTemplate it is
    submitted from.
  - When a node starts (workflow/controller/dag.go): a DAG's task starts once every task its
    `depends` names has completed (executeDAGTask, evaluateDependsLogic), whatever the order
    of the tasks; a DAG starts its tasks when it starts, and completes when all of them have
    (assessDAGPhase), so a task's nested DAG waits, as a whole, for the task's `depends`.
    Each created object records `waits`: the objects whose completion its start waited for
    directly (a task's own `depends`, and those of every DAG around it), as indexes into
    `created`; a DAG's completion is that of its tasks that no other of its tasks waits for.
Not modelled: the one-time substitution of the globals into the workflow's spec (operator.go
substituteGlobalVariables; flowc rejects defaults Argo would read there), steps templates,
artifacts, outputs, `when`, hooks other than exit, backoff delays, and the workflow's own
parameters beyond values.

Run as a script (`argo_model.py selftest`) it checks itself against facts from Argo's tests.
"""
import copy
import json
import sys
import zlib

import yaml
import yaml_reader

from argo_expr import (ArgoError, ExprCompileError, ExprRunError, Parser, RawNumber, argo_env,
                       evaluate, from_bytes, go_float, go_json, go_quote, go_raw_items, json_valid,
                       to_bytes, tokenize)


def mentions(expression, variable):
    """expression_template.go hasVariableInExpression (by the lexer's tokens)."""
    if variable not in expression:
        return False
    try:
        tokens = [v for _, v in tokenize(expression)]
    except ExprCompileError:
        return False
    want = [v for _, v in tokenize(variable)][:-1]
    return any(tokens[i:i + len(want)] == want for i in range(len(tokens)))


def has_var(values, variable):
    return variable in values


def expression_replace(expression, values, allow_unresolved):
    """expression_template.go expressionReplace: the text written for `{{=expression}}`."""
    written_back = "{{=" + expression + "}}"
    try:
        source = json.loads('"%s"' % expression)
    except ValueError:
        if allow_unresolved:
            return written_back
        raise ArgoError("failed to unmarshall JSON expression: %s" % expression)
    late = ["retries", "lastRetry.exitCode", "lastRetry.status", "lastRetry.duration",
            "lastRetry.message", "workflow.status", "workflow.failures"]
    if allow_unresolved and any(mentions(source, v) and not has_var(values, v) for v in late):
        return written_back
    env = argo_env(values)
    try:
        program = Parser(source, env).parse()
    except ExprCompileError as e:
        if allow_unresolved:
            return written_back
        raise ArgoError("failed to evaluate expression: %s: %s" % (source, e))
    try:
        result = evaluate(program, env)
    except (ExprRunError, RecursionError) as e:
        if allow_unresolved:
            return written_back
        raise ArgoError("failed to evaluate expression: %s: %s" % (source, e))
    if result is None:
        if allow_unresolved:
            return written_back
        raise ArgoError("failed to evaluate expression %r" % source)
    marshaled = go_json(result)
    if len(marshaled) > 1 and marshaled[0] == '"' and marshaled[-1] == '"':
        return marshaled[1:-1]
    return go_quote(marshaled)[1:-1]


def simple_replace(tag, values, allow_unresolved):
    """simple_template.go simpleReplace."""
    value = values.get(tag.strip())
    if value is None:
        index = tag.rfind("{{")
        if index > 0 and tag[index + 2:] in values:
            return "{{" + tag[:index] + go_quote(values[tag[index + 2:]])[1:-1]
        if allow_unresolved:
            return "{{" + tag + "}}"
        raise ArgoError("failed to resolve {{%s}}" % tag)
    return go_quote(value)[1:-1]


def fasttemplate(text):
    """valyala/fasttemplate: the texts and the tags between `{{` and the next `}}`."""
    texts, tags = [], []
    while True:
        start = text.find("{{")
        if start < 0:
            texts.append(text)
            return texts, tags
        texts.append(text[:start])
        text = text[start + 2:]
        end = text.find("}}")
        if end < 0:
            raise ArgoError("unable to parse argo variable: Cannot find end tag=\"}}\"")
        tags.append(text[:end])
        text = text[end + 2:]


def replace(text, values, allow_unresolved):
    """util/template Replace over a JSON text."""
    if not json_valid(text):
        raise ArgoError("cannot do template replacements with invalid JSON")
    texts, tags = fasttemplate(text)
    out = [texts[0]]
    for tag, after in zip(tags, texts[1:]):
        if tag.startswith("="):
            out.append(expression_replace(tag[1:], values, allow_unresolved))
        else:
            out.append(simple_replace(tag, values, allow_unresolved))
        out.append(after)
    result = "".join(out)
    if not json_valid(result):
        raise ArgoError("cannot finish template replacement because the result was invalid "
                        "JSON")
    return result


# --- kubelet ---------------------------------------------------------------------------------

def kubelet_expand(text, env):
    """k8s.io/kubernetes third_party/forked/golang/expansion/expand.go Expand, with the
    mapping of MappingFuncFor: a defined variable's value, else the reference as written.
    Byte by byte, as Go indexes strings: a `$` before a byte that is not `$` or `(` gives
    `string(operator) + string(input[0])`, which converts that byte as a code point, so a `$`
    right before a non-ASCII character corrupts it."""
    data = to_bytes(text)
    out = []
    checkpoint = 0
    cursor = 0
    while cursor < len(data):
        if data[cursor:cursor + 1] == b"$" and cursor + 1 < len(data):
            out.append(data[checkpoint:cursor])
            rest = data[cursor + 1:]
            if rest[:1] == b"$":
                out.append(b"$")
                advance = 1
            elif rest[:1] == b"(":
                close = rest.find(b")", 1)
                if close >= 0:
                    name = from_bytes(rest[1:close])
                    out.append(to_bytes(env[name]) if name in env else b"$(" + rest[1:close] +
                               b")")
                    advance = close + 1
                else:
                    out.append(b"$(")
                    advance = 1
            else:
                out.append(b"$" + chr(rest[0]).encode("utf-8"))
                advance = 1
            cursor += advance
            checkpoint = cursor + 1
        cursor += 1
    return from_bytes(b"".join(out) + data[checkpoint:])


def container_argv(container, extra_env=None):
    """What the container's process receives: command and args, each expanded by kubelet with
    the container's env (values expanded in order, each with the ones before it)."""
    env = dict(extra_env or {})
    for var in container.get("env") or []:
        if "value" in var:
            env[var["name"]] = kubelet_expand(var["value"], env)
    return [kubelet_expand(a, env) for a in (container.get("command") or []) +
            (container.get("args") or [])]


# --- the workflow ----------------------------------------------------------------------------

def item_value(item):
    """operator.go processItem: a String item as GetStrVal decodes it, a Number or Bool as
    `%v` prints the Item (item.go String: its JSON text, as written), a List or Map as
    json.Marshal writes GetListVal or GetMapVal (keys sorted, numbers as written). Items
    read from withParam keep each number's text (go_raw_items); withItems come from YAML."""
    if isinstance(item, RawNumber):
        return str.__str__(item)
    if isinstance(item, str):
        return item
    if item is True or item is False:
        return "true" if item else "false"
    if isinstance(item, float):
        return go_float(item)
    return go_json(item)


class Workflow:
    """One run of a WorkflowTemplate (`argo submit --from workflowtemplate/...`).

    `created` lists what the run creates: {"template", "kind": "Pod" or the resource's kind,
    "object", "inputs", "path", "waits"} ("path": the index of the element in each foreach
    around it, outermost first; "waits": see the module's doc) for each pod of a container template and each object a resource
    template creates (with "pod": the pod that creates it), in the order Argo reaches them;
    `deleted` what resource templates delete, {"template", "kind", "object", "after"}, "after"
    the number of objects created before it. `outcomes`: per template name, the phases its
    runs end in, one per run, in order ("Succeeded" when not given)."""

    def __init__(self, docs, version, params=None, name="flow-x7k2p", outcomes=None,
                 template=None, parent=None, path=(), after=frozenset(), service_account="",
                 stop=None):
        if version not in (3, 4):
            raise ValueError(version)
        self.version = version
        self.docs = docs
        workflows = [d for d in docs if d and d.get("kind") == "WorkflowTemplate"]
        if template is None:
            # The one submitted (`argo submit --from workflowtemplate/...`, or a CronWorkflow's
            # workflowTemplateRef): the last of the stream, which flowc writes after the parts
            # its run creates.
            mains = [w for w in workflows if "entrypoint" in w["spec"]]
            if not mains:
                raise ArgoError("expected a WorkflowTemplate with an entrypoint")
            main = mains[-1]
        else:
            # A Workflow created with workflowTemplateRef (a part's, below).
            named = [w for w in workflows if w["metadata"]["name"] == template]
            if not named:
                raise ArgoError("workflow template %s not found" % template)
            main = named[0]
        self.spec = main["spec"]
        self.base = main["metadata"]["name"]
        self.namespace = main["metadata"].get("namespace")
        self.name = name
        self.library = {}
        for w in workflows:
            if w["metadata"].get("namespace") != self.namespace:
                continue  # a templateRef names a WorkflowTemplate of the workflow's namespace
            self.library[w["metadata"]["name"]] = {t["name"]: t for t in w["spec"]["templates"]}
        self.templates = self.library[self.base]
        self.globals = {"workflow.name": name, "workflow.namespace": self.namespace or "argo",
                        "workflow.uid": "6a0f6c1e-0000-4000-8000-%012x"
                                        % (zlib.crc32(name.encode())),
                        # operator.go setGlobalParameters: the Workflow's spec's.
                        "workflow.serviceAccountName": service_account}
        given = dict(params or {})
        self.arguments_given = dict(given)
        for p in self.spec.get("arguments", {}).get("parameters", []):
            value = given.pop(p["name"], p.get("value"))
            if value is None:
                raise ArgoError("spec.arguments.%s.value is required" % p["name"])
            self.globals["workflow.parameters." + p["name"]] = value
        if given and parent is None:
            raise ArgoError("unknown parameters %s" % sorted(given))
        # A created Workflow's arguments are merged over its WorkflowTemplate's
        # (workflow/util/merge.go JoinWorkflowSpec): those the template does not declare are
        # parameters all the same.
        for k, v in given.items():
            self.globals["workflow.parameters." + k] = v
        self.parent = parent
        self.start_path = tuple(path)
        self.start_after = after
        # What the run holds in this Workflow object, as the controller writes it: the
        # WorkflowTemplate's spec (status.storedWorkflowTemplateSpec), each template resolved
        # through a templateRef (status.storedTemplates), the nodes (status.nodes).
        self.stored_templates = {}
        self.node_bytes = 0
        self.nodes = 0
        if parent is None:
            self.created = []
            self.pods_created = [0]  # of self.created; shared with the run's child Workflows
            self.deleted = []
            self.outcomes = {k: list(v) for k, v in (outcomes or {}).items()}
            # Every Workflow object of the run: {"name", "template", "owner", "bytes", "nodes",
            # "phase", "labels", "serviceAccountName", "deleted"}.
            self.workflows = []
            # `stop`: (strategy, pods) — `argo stop` (Stop) or `argo terminate` (Terminate) of
            # this Workflow once the run has created that many pods.
            self.stop = stop
        else:
            self.created = parent.created
            self.pods_created = parent.pods_created
            self.deleted = parent.deleted
            self.outcomes = parent.outcomes
            self.workflows = parent.workflows
            self.stop = parent.stop

    def run(self):
        try:
            phase, _ = self.run_workflow()
        except Shutdown as shutdown:
            # The submitted Workflow's spec.shutdown (util.go StopWorkflow/TerminateWorkflow
            # patch it): its running pods are killed (exec_control.go applyExecutionControl:
            # queuePodForCleanup unless ShouldExecute(onExitPod)), among them every pod waiting
            # for a part, which leaves the part's Workflow as it is (resource.go WaitResource
            # only returns); its nodes fail, and its exit handler runs under Stop only
            # (operator.go operate: `onExitNode != nil || ShouldExecute(true)`; workflow_types.go
            # ShutdownStrategy.ShouldExecute: Terminate false, Stop true for exit pods).
            phase = "Failed"
            self.workflows.append(self.record(None, None, phase))
            if shutdown.strategy == "Stop":
                self.on_exit(phase)
            self.phase = phase
            return self.created
        self.phase = phase
        return self.created

    def record(self, spec, owner, phase):
        size = (len(go_json(spec or {})) + len(go_json(self.spec)) +
                len(go_json(self.stored_templates)) + self.node_bytes)
        metadata = (spec or {}).get("metadata", {})
        return {"name": self.name, "template": self.base, "owner": owner, "bytes": size,
                "nodes": self.nodes, "phase": phase, "labels": dict(metadata.get("labels", {})),
                "serviceAccountName": self.globals["workflow.serviceAccountName"],
                "deleted": False}

    def on_exit(self, phase):
        """operator.go operate: once the entrypoint's node is done, spec.onExit's template as the
        node `<workflow>.onExit`, with workflow.status the Workflow's phase."""
        if "onExit" not in self.spec:
            return
        self.globals["workflow.status"] = phase
        self.execute({"template": self.spec["onExit"]}, {}, self.name + ".onExit", self.base)

    def run_workflow(self, spec=None, owner=None):
        """The Workflow's entrypoint, with the Workflow's arguments as its arguments
        (operator.go operate: executeTemplate of the entrypoint with execWf.Spec.Arguments);
        then the object's size, recorded."""
        arguments = {p["name"]: self.globals["workflow.parameters." + p["name"]]
                     for p in self.spec.get("arguments", {}).get("parameters", [])}
        arguments.update(self.arguments_given)
        try:
            phase, done = self.execute({"template": self.spec["entrypoint"]}, arguments,
                                       self.name, self.base, self.start_path, self.start_after)
        except Shutdown:
            if self.parent is not None:
                # A part's Workflow knows nothing of its creator's shutdown: it is Running.
                self.workflows.append(self.record(spec, owner, "Running"))
            raise
        self.on_exit(phase)
        self.workflows.append(self.record(spec, owner, phase))
        return phase, done

    def record_node(self, node_name, template, node_type, inputs=None):
        """A node's status as the controller writes it into status.nodes
        (pkg/apis/workflow/v1alpha1/workflow_types.go NodeStatus), its JSON's bytes: the fields
        every finished node has, with timestamps, a host and its resource durations."""
        node_id = "%s-%010d" % (self.name, zlib.crc32(node_name.encode()))
        status = {"id": node_id, "name": node_name, "displayName": node_name.rsplit(".", 1)[-1],
                  "type": node_type, "templateName": template, "templateScope": "local/",
                  "phase": "Succeeded", "boundaryID": node_id, "children": [node_id],
                  "startedAt": "2026-01-01T00:00:00Z", "finishedAt": "2026-01-01T00:00:00Z",
                  "progress": "1/1", "resourcesDuration": {"cpu": 1, "memory": 1},
                  "hostNodeName": "ip-10-0-0-1.eu-west-1.compute.internal",
                  "outputs": {"exitCode": "0"}}
        if inputs:
            status["inputs"] = {"parameters": [{"name": k, "value": v}
                                               for k, v in sorted(inputs.items())]}
        self.nodes += 1
        self.node_bytes += len(go_json({node_id: status}))

    def resolve(self, holder, base):
        """templateresolution/context.go: the template `holder` (a task or hook) names, and the
        WorkflowTemplate whose names it sees."""
        ref = holder.get("templateRef")
        if ref is not None:
            if ref.get("clusterScope"):
                raise ArgoError("the model has no ClusterWorkflowTemplates")
            templates = self.library.get(ref["name"])
            if templates is None:
                raise ArgoError("workflow template %s not found" % ref["name"])
            if ref["template"] not in templates:
                raise ArgoError("template %s not found in workflow template %s"
                                % (ref["template"], ref["name"]))
            # SetStoredTemplate (workflow_types.go), from templateresolution/context.go.
            self.stored_templates["namespaced/%s/%s" % (ref["name"], ref["template"])] = \
                templates[ref["template"]]
            return ref["template"], templates[ref["template"]], ref["name"]
        name = holder["template"]
        if name not in self.library[base]:
            raise ArgoError("template %s not found" % name)
        return name, self.library[base][name], base

    def pod_name(self, node_name, template):
        return "%s-%s-%d" % (self.name, template, zlib.crc32(node_name.encode()))

    def substitute(self, tmpl, locals_):
        """common.SubstituteParams: globals and locals, then the inputs."""
        first = dict(self.globals, **locals_)
        text = replace(go_json(tmpl, "Template"), first, True)
        inputs = {}
        params = json.loads(text).get("inputs", {}).get("parameters", [])
        for p in params:
            if p.get("value") is None:
                raise ArgoError("inputs.parameters.%s had no value" % p["name"])
            inputs["inputs.parameters." + p["name"]] = p["value"]
        inputs["inputs.parameters"] = go_json(params, ["Parameter"])
        second = inputs if self.version == 3 else dict(first, **inputs)
        return json.loads(replace(text, second, True))

    def execute(self, holder, arguments, node_name, base, path=(), after=frozenset()):
        """operator.go executeTemplate: (the node's phase, the created objects whose completion
        completes it). `after`: what the node waited for."""
        name, tmpl, base = self.resolve(holder, base)
        tmpl = copy.deepcopy(tmpl)
        for p in tmpl.get("inputs", {}).get("parameters", []):
            value = arguments.get(p["name"], p.get("default"))
            if value is None:
                raise ArgoError("inputs.parameters.%s was not supplied" % p["name"])
            p["value"] = value
        pod_type = "container" in tmpl or "resource" in tmpl
        retried = "retryStrategy" in tmpl
        first = {"node.name": node_name}
        if pod_type and not retried:
            first["pod.name"] = self.pod_name(node_name, name)
        tmpl = self.substitute(tmpl, first)
        where = (base, path)
        if not retried:
            return self.run_node(tmpl, name, node_name, where, after)
        phase = None
        for attempt in range(int(tmpl["retryStrategy"].get("limit", 0)) + 1):
            child = "%s(%d)" % (node_name, attempt)
            pod_name = self.pod_name(child, name)
            last = {"lastRetry.exitCode": "0", "lastRetry.status": phase or "",
                    "lastRetry.duration": "0", "lastRetry.message": ""}
            phase, after = self.run_node(self.substitute(copy.deepcopy(tmpl), dict(
                last, **{"pod.name": pod_name, "retries": str(attempt)})), name, child, where,
                after)
            if phase == "Succeeded":
                break
        return phase, after

    def run_node(self, tmpl, name, node_name, where, after):
        self.record_node(node_name, name, "DAG" if "dag" in tmpl else "Pod",
                         self.inputs_of(tmpl))
        if "dag" in tmpl:
            return self.execute_dag(tmpl, node_name, where, after)
        pod_name = self.pod_name(node_name, name)
        done = after
        if "container" in tmpl:
            done = frozenset([self.create_pod(tmpl, pod_name, where[1], after)])
        elif "resource" in tmpl:
            made = self.create_resource(tmpl, pod_name, where[1], after)
            if isinstance(made, tuple):  # a Workflow: its phase as the conditions read it
                return made
            if made is not None:
                done = frozenset([made])
        else:
            raise ArgoError("template %s has no type the model knows" % name)
        left = self.outcomes.get(name)
        return (left.pop(0) if left else "Succeeded"), done

    @staticmethod
    def depends_on(task, names):
        """The tasks a `depends` names, as flowc writes it: task names joined by ` && `, each
        meaning that task succeeded (common/ancestry.go expands a bare name so)."""
        text = task.get("depends", "").strip()
        if not text:
            return []
        named = [n.strip() for n in text.split("&&")]
        for n in named:
            if n not in names:
                raise ArgoError("task %s depends on %r, which is no task of its DAG"
                                % (task["name"], n))
        return named

    def execute_dag(self, tmpl, node_name, where, after):
        """dag.go: every task once its `depends` have completed (a failed task does not stop
        the others here); the DAG's phase and completion."""
        base, path = where
        scope = {"inputs.parameters." + p["name"]: p["value"]
                 for p in tmpl.get("inputs", {}).get("parameters", [])}
        values = dict(self.globals, **scope)
        phase = "Succeeded"
        tasks = tmpl["dag"]["tasks"]
        names = {t["name"] for t in tasks}
        if len(names) != len(tasks):
            raise ArgoError("DAG %s has two tasks of one name" % tmpl["name"])
        waits = {t["name"]: self.depends_on(t, names) for t in tasks}
        # In an order the dependencies allow: each time, the first task in the DAG's own order
        # whose dependencies have run.
        order, placed, left = [], set(), list(tasks)
        while left:
            ready = next((t for t in left if all(d in placed for d in waits[t["name"]])), None)
            if ready is None:
                raise ArgoError("DAG %s has a dependency cycle" % tmpl["name"])
            order.append(ready)
            placed.add(ready["name"])
            left.remove(ready)
        done_of = {}
        waited = set()
        for task in order:
            task_after = after.union(*[done_of[d] for d in waits[task["name"]]])
            waited.update(waits[task["name"]])
            task = json.loads(replace(go_json(task, "DAGTask"), values, True))
            if "withItems" in task:
                items = task["withItems"]
            elif "withParam" in task:
                try:
                    items = go_raw_items(task["withParam"])
                    if not isinstance(items, list):
                        raise ValueError
                except ValueError:
                    raise ArgoError("withParam value could not be parsed as a JSON list: %s"
                                    % task["withParam"].strip())
            else:
                task_node = "%s.%s" % (node_name, task["name"])
                done, completed = self.execute(task, self.arguments(task), task_node, base,
                                               path, task_after)
                done_of[task["name"]] = self.exit_hook(
                    task, task_node, dict(values, **{"tasks.%s.status" % task["name"]: done}),
                    base, path, completed)
                if done != "Succeeded":
                    phase = "Failed"
                continue
            text = go_json(task, "DAGTask")  # withItems and withParam still in it
            completed = task_after
            for i, item in enumerate(items):
                expanded = json.loads(replace(text, dict(values, item=item_value(item)), False))
                done, element = self.execute(expanded, self.arguments(expanded),
                                             "%s.%s(%d)" % (node_name, task["name"], i), base,
                                             path + (i,), task_after)
                completed = completed | element
                if done != "Succeeded":
                    phase = "Failed"
            done_of[task["name"]] = completed
        # Done when every task is: those no other task waits for imply the rest.
        return phase, after.union(*[done_of[t["name"]] for t in tasks
                                    if t["name"] not in waited])

    def exit_hook(self, task, task_node, scope, base, path, completed):
        """hooks.go runOnExitNode: the hook's template, when its expression holds; what the task
        has completed with, once the hook has."""
        hook = task.get("hooks", {}).get("exit")
        if hook is None:
            return completed
        if "expression" in hook:
            env = argo_env(scope)
            if not evaluate(Parser(hook["expression"], env).parse(), env):
                return completed
        return completed | self.execute(hook, self.arguments(hook), task_node + ".onExit", base,
                                         path, completed)[1]

    @staticmethod
    def arguments(task):
        return {p["name"]: p.get("value")
                for p in task.get("arguments", {}).get("parameters", [])}

    def pod(self, tmpl, pod_name, main):
        """createWorkflowPod: the pod, the template in the executor's ARGO_TEMPLATE env."""
        template_env = {"name": "ARGO_TEMPLATE", "value": go_json(tmpl, "Template")}
        spec = {"initContainers": [{"name": "init", "image": "quay.io/argoproj/argoexec",
                                    "env": [template_env]}],
                "containers": [{"name": "wait", "image": "quay.io/argoproj/argoexec",
                                "env": [template_env]}, main],
                "restartPolicy": "Never"}
        for key in ("volumes", "nodeSelector", "serviceAccountName", "tolerations",
                    "resourceClaims"):
            if key in tmpl:
                spec[key] = tmpl[key]
        if "activeDeadlineSeconds" in tmpl:
            spec["activeDeadlineSeconds"] = int(tmpl["activeDeadlineSeconds"])
        if "imagePullSecrets" in self.spec:
            spec["imagePullSecrets"] = self.spec["imagePullSecrets"]
        if "podSpecPatch" in tmpl:
            # A strategic merge patch onto a pod that has none of these lists yet.
            patch = yaml_reader.load(tmpl["podSpecPatch"])
            for key in ("imagePullSecrets", "resourceClaims"):
                if key in patch:
                    spec[key] = patch[key]
        metadata = {"name": pod_name}
        if self.namespace:
            metadata["namespace"] = self.namespace
        for key in ("labels", "annotations"):
            if key in tmpl.get("metadata", {}):
                metadata[key] = tmpl["metadata"][key]
        return {"metadata": metadata, "spec": spec}

    def substitute_pod(self, pod, tmpl):
        """workflowpod.go substitutePodParams."""
        values = dict(self.globals)
        for p in tmpl.get("inputs", {}).get("parameters", []):
            values["inputs.parameters." + p["name"]] = p["value"]
        values["pod.name"] = pod["metadata"]["name"]
        return json.loads(replace(go_json(pod, "Pod"), values, True))

    def inputs_of(self, tmpl):
        return {p["name"]: p["value"] for p in tmpl.get("inputs", {}).get("parameters", [])}

    def create_pod(self, tmpl, pod_name, path, after):
        if self.stop is not None and self.pods_created[0] == self.stop[1]:
            raise Shutdown(self.stop[0])
        main = dict(tmpl["container"], name="main")
        pod = self.substitute_pod(self.pod(tmpl, pod_name, main), tmpl)
        self.created.append({"template": tmpl["name"], "kind": "Pod", "object": pod,
                             "inputs": self.inputs_of(tmpl), "path": path, "waits": after})
        self.pods_created[0] += 1
        return len(self.created) - 1

    def create_resource(self, tmpl, pod_name, path, after):
        """executeResource, then the pod whose argoexec creates the manifest."""
        resource = tmpl["resource"]
        if resource["action"] == "delete" and not resource.get("manifest", "").strip():
            return self.delete_selected(tmpl, resource.get("flags", []))
        try:
            obj = yaml_reader.load(resource["manifest"])
        except yaml.YAMLError as e:
            raise ArgoError("the manifest is not YAML: %s" % e)
        if resource.get("setOwnerReference"):
            obj.setdefault("metadata", {}).setdefault("ownerReferences", []).append(
                {"apiVersion": "argoproj.io/v1alpha1", "kind": "Workflow", "name": self.name,
                 "uid": self.globals["workflow.uid"], "controller": True,
                 "blockOwnerDeletion": True})
            # sigs.k8s.io/yaml Marshal (go-yaml: lines folded at 80 columns).
            resource["manifest"] = yaml.safe_dump(obj, allow_unicode=True, width=80,
                                                  sort_keys=True)
        main = {"name": "main", "image": "quay.io/argoproj/argoexec",
                "command": ["argoexec", "resource", resource["action"]],
                "env": [{"name": "ARGO_TEMPLATE", "value": go_json(tmpl, "Template")}]}
        pod = self.substitute_pod(self.pod(tmpl, pod_name, main), tmpl)
        executed = json.loads(next(e["value"] for e in pod["spec"]["containers"][1]["env"]
                                   if e["name"] == "ARGO_TEMPLATE"))
        try:
            created = yaml_reader.load(executed["resource"]["manifest"])
        except yaml.YAMLError as e:
            raise ArgoError("argoexec cannot read the manifest: %s" % e)
        if created.get("kind") == "Workflow" and resource["action"] == "create":
            return self.create_workflow(tmpl, created, path, after)
        if resource["action"] == "delete":
            self.deleted.append({"template": tmpl["name"], "kind": created.get("kind"),
                                 "object": created, "after": len(self.created)})
            return None
        self.created.append({"template": tmpl["name"], "kind": created.get("kind"),
                             "object": created, "inputs": self.inputs_of(tmpl), "pod": pod,
                             "path": path, "waits": after})
        return len(self.created) - 1


    def create_workflow(self, tmpl, manifest, path, after):
        """argoexec `resource create` of a Workflow (workflow/executor/resource.go ExecResource:
        `kubectl create -f`, the name the API server gives a generateName; WaitResource polls
        the object until a condition holds), and the controller's run of it: a Workflow of its
        own, from the WorkflowTemplate its workflowTemplateRef names, with its
        spec.arguments as parameters. (phase, the created objects that completed it)."""
        metadata = manifest.get("metadata", {})
        if metadata.get("namespace", self.namespace) != self.namespace:
            raise ArgoError("a part's Workflow in another namespace")
        name = metadata.get("name")
        if name is None:
            # storage/names/generate.go SimpleNameGenerator: the base cut to 58, 5 characters.
            name = metadata["generateName"][:58] + "%05x" % (len(self.workflows) + 1)
        spec = manifest["spec"]
        ref = spec.get("workflowTemplateRef", {}).get("name")
        arguments = {}
        for p in spec.get("arguments", {}).get("parameters", []):
            if not isinstance(p.get("value"), str):
                raise ArgoError("argument %s of %s is not a string" % (p.get("name"), name))
            arguments[p["name"]] = p["value"]
        child = Workflow(self.docs, self.version, arguments, name, template=ref, parent=self,
                         path=path, after=after,
                         service_account=spec.get("serviceAccountName", ""))
        owners = [o for o in metadata.get("ownerReferences", []) if o.get("controller")]
        owner = owners[0] if len(owners) == 1 else None
        if owner is not None and (owner.get("name"), owner.get("uid")) != (
                self.name, self.globals["workflow.uid"]):
            owner = {"wrong": owner}
        phase, done = child.run_workflow(manifest, owner and owner.get("name"))
        status = {"status": {"phase": phase}}
        resource = tmpl["resource"]
        if resource.get("failureCondition") and \
                label_requirements_match(resource["failureCondition"], status):
            return "Failed", done
        if resource.get("successCondition") and \
                label_requirements_match(resource["successCondition"], status):
            return "Succeeded", done
        if not resource.get("successCondition"):
            return "Succeeded", done
        raise ArgoError("%s: the Workflow ended %s, which no condition matches: the resource "
                        "template would wait for ever" % (tmpl["name"], phase))

    def delete_selected(self, tmpl, flags):
        """argoexec `resource delete` with flags and no manifest (resource.go
        getKubectlArguments: `kubectl delete --ignore-not-found <flags> -o name`), of Workflows
        by a label selector: those of the run whose labels match, as the controller labels them
        (operator.go markWorkflowPhase: workflows.argoproj.io/completed "true" once Succeeded,
        Failed or Error); and, by the garbage collector, everything they own (ownerReferences,
        background propagation), their own parts' Workflows among them."""
        kind, namespace, selector = None, None, None
        for flag in flags:
            if flag.startswith("--namespace="):
                namespace = flag[len("--namespace="):]
            elif flag.startswith("--selector="):
                selector = flag[len("--selector="):]
            elif not flag.startswith("-") and kind is None:
                kind = flag
            else:
                raise ArgoError("kubectl delete: a flag the model does not know: %s" % flag)
        if kind not in ("workflows.argoproj.io", "workflows", "workflow", "wf") or \
                selector is None:
            raise ArgoError("%s: a delete that selects no Workflows: %s" % (tmpl["name"], flags))
        if namespace != (self.namespace or "argo"):
            raise ArgoError("%s: deletes in namespace %r, not the workflow's" %
                            (tmpl["name"], namespace))
        hit = []
        for w in self.workflows:
            labels = dict(w["labels"])
            if w["phase"] in ("Succeeded", "Failed", "Error"):
                labels["workflows.argoproj.io/completed"] = "true"
            if not w["deleted"] and labels_match(selector, labels):
                hit.append(w["name"])
        while hit:
            name = hit.pop()
            for w in self.workflows:
                if w["name"] == name and not w["deleted"]:
                    w["deleted"] = True
                    hit += [o["name"] for o in self.workflows if o["owner"] == name]
        self.deleted.append({"template": tmpl["name"], "kind": "Workflow", "object": None,
                             "selector": selector, "after": len(self.created)})
        return None


class Shutdown(Exception):
    """A stop or terminate of the submitted Workflow, mid-run (Workflow `stop`)."""

    def __init__(self, strategy):
        super().__init__(strategy)
        self.strategy = strategy


def labels_match(selector, labels):
    """k8s.io/apimachinery labels.Parse of a selector of `k=v`, `k==v`, `k!=v` terms: a missing
    label never equals and always differs."""
    for term in selector.split(","):
        if "!=" in term:
            key, value = term.split("!=", 1)
            if labels.get(key.strip()) == value.strip():
                return False
        else:
            key, value = term.split("==", 1) if "==" in term else term.split("=", 1)
            if labels.get(key.strip()) != value.strip():
                return False
    return True


def label_requirements_match(selector, obj):
    """workflow/executor/resource.go matchConditions: the condition is a label selector
    (k8s.io/apimachinery labels.Parse) whose keys are gjson paths into the object's JSON; every
    requirement must match. The operators flowc writes: `==`, `!=`, `in (...)`."""
    for requirement in [r.strip() for r in split_requirements(selector)]:
        if " in " in requirement:
            key, values = requirement.split(" in ", 1)
            allowed = [v.strip() for v in values.strip().strip("()").split(",")]
            ok = lookup(obj, key.strip()) in allowed
        elif "!=" in requirement:
            key, value = requirement.split("!=", 1)
            ok = lookup(obj, key.strip()) != value.strip()
        else:
            key, value = requirement.split("==", 1) if "==" in requirement else \
                requirement.split("=", 1)
            ok = lookup(obj, key.strip()) == value.strip()
        if not ok:
            return False
    return True


def split_requirements(selector):
    out, depth, current = [], 0, ""
    for c in selector:
        depth += c == "("
        depth -= c == ")"
        if c == "," and depth == 0:
            out.append(current)
            current = ""
        else:
            current += c
    return out + [current]


def lookup(obj, path):
    for key in path.split("."):
        if not isinstance(obj, dict) or key not in obj:
            return None
        obj = obj[key]
    return obj if isinstance(obj, str) else go_json(obj)


def run(docs, version, params=None, name="flow-x7k2p", outcomes=None):
    """What one run of the WorkflowTemplate in `docs` creates (see Workflow)."""
    return Workflow(docs, version, params, name, outcomes).run()


def run_all(docs, version, params=None, name="flow-x7k2p", outcomes=None, service_account="",
            stop=None):
    """The run, and every Workflow object it made (Workflow.workflows), the submitted one's
    last."""
    workflow = Workflow(docs, version, params, name, outcomes, service_account=service_account,
                        stop=stop)
    workflow.run()
    return workflow


# --- self-test: facts from Argo's own tests and docs ----------------------------------------

def selftest():
    """The model against facts from Argo's, sprig's and kubernetes' own tests; [failure]."""
    failures = []

    def check(what, actual, expected):
        if actual != expected:
            failures.append("%s: expected %r, got %r" % (what, expected, actual))

    # util/template/template_test.go and replace_test.go.
    check("simple", replace('{"x":"{{foo}}"}', {"foo": "bar"}, False), '{"x":"bar"}')
    check("unresolved allowed", replace('{"x":"{{foo}}"}', {}, True), '{"x":"{{foo}}"}')
    try:
        replace('{"x":"{{foo}}"}', {}, False)
        failures.append("strict: no error")
    except ArgoError as e:
        check("strict", str(e), "failed to resolve {{foo}}")
    check("quoted", replace('{"x":"{{foo}}"}', {"foo": 'a"b\n'}, False), '{"x":"a\\"b\\n"}')
    check("expression", replace('{"x":"{{=1 + 1}}"}', {}, False), '{"x":"2"}')
    check("expression string", replace('{"x":"{{=sprig.trim(\' a \')}}"}', {}, False),
          '{"x":"a"}')
    check("expression unresolved",
          replace('{"x":"{{=inputs.parameters.y}}"}', {}, True),
          '{"x":"{{=inputs.parameters.y}}"}')
    check("nested", replace('{"x":"{{ a {{inputs.parameters.y}}"}', {"inputs.parameters.y": "v"},
                            True), '{"x":"{{ a v"}')
    # sprig and expr-lang.
    env = argo_env({})
    check("substr bytes", evaluate(Parser("sprig.substr(1, 3, 'über')", env).parse(), env),
          from_bytes(to_bytes("über")[1:3]))
    check("len chars", evaluate(Parser("len('über')", env).parse(), env), 4)
    check("toJson html", evaluate(Parser("toJson('<a>')", env).parse(), env),
          '"\\u003ca\\u003e"')
    check("map", evaluate(Parser("map(['a', 'b'], # + 'x')", env).parse(), env), ["ax", "bx"])
    check("regex", evaluate(Parser("sprig.regexReplaceAll('^.|.$', '\"a\\n\"', '')",
                                   env).parse(), env), "a\n")
    # regexp.Expand: a group that did not take part expands to nothing.
    check("regex groups", evaluate(Parser("sprig.regexReplaceAll('(a)|(b)', 'ab', '[$1|$2]')",
                                          env).parse(), env), "[a|][|b]")
    # sprig defaults.go: toRawJson is encoding/json without HTML escapes (U+2028 still escaped).
    check("toRawJson", evaluate(Parser("sprig.toRawJson(['<&>\u2028', 1.0])", env).parse(), env),
          '["<&>\\u2028",1]')
    check("fromJson floats", evaluate(Parser("toJson(sprig.fromJson('[1e3, 1.0, -0.0, 5e-7]'))",
                                             env).parse(), env), "[1000,1,-0,5e-7]")
    # pkg/apis/workflow/v1alpha1/item.go: an Item holds its JSON text; `%v` of a Number item is
    # that text, a List or Map is marshalled with it (keys sorted).
    items = go_raw_items('[1.0, 1e3, "x", [2.50], {"b": 1.0, "a": "<"}]')
    check("withParam items", [item_value(i) for i in items],
          ["1.0", "1e3", "x", "[2.50]", '{"a":"\\u003c","b":1.0}'])
    # kubelet: expand_test.go.
    check("kubelet", kubelet_expand("$(A) $$(A) $$ $(B) $( $x", {"A": "a"}),
          "a $(A) $ $(B) $( $x")
    check("kubelet end", kubelet_expand("x$", {}), "x$")
    # expansion.go tryReadVariableName: string(input[0]) converts the byte as a code point.
    check("kubelet byte", kubelet_expand("$ü", {}), "$\u00c3" + from_bytes(b"\xbc"))
    return failures


if __name__ == "__main__":
    if sys.argv[1:] != ["selftest"]:
        sys.exit("usage: argo_model.py selftest")
    problems = selftest()
    print("\n".join(problems) or "argo_model: self-test passed")
    sys.exit(1 if problems else 0)
