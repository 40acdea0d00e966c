// Unit tests of the Argo checks of `flowc validate` (compiler/validate/checks/argo.cc,
// argo_params.cc, cron.cc): references, names, template types, DAGs, declared parameters,
// templateRef targets in the stream, and CronWorkflow schedules, each on a document that passes
// and one that breaks it, with the whole finding.
#include <doctest/doctest.h>

#include <string>

#include "validate_checks_util.h"

namespace flowc::validate {
namespace {

using testing::Check;
using testing::Lines;

const char* kArgo = R"(apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata: {generateName: train-}
spec:
  entrypoint: main
  onExit: cleanup
  arguments: {parameters: [{name: lr, value: "0.1"}]}
  volumeClaimTemplates: [{metadata: {name: work}}]
  templates:
  - name: main
    inputs: {parameters: [{name: epochs}]}
    dag:
      tasks:
      - {name: prep, template: step}
      - {name: train, template: step, depends: "prep.Succeeded || !prep.Failed",
         arguments: {parameters: [{name: n, value: "{{inputs.parameters.epochs}}"}]}}
      - {name: eval, dependencies: [train], templateRef: {name: lib, template: eval}}
      - {name: note, inline: {inputs: {parameters: [{name: q}]}, container: {image: x, args: ["{{inputs.parameters.q}}"]}}}
  - name: step
    container: {image: x, args: ["{{workflow.parameters.lr}}", "{{=inputs.parameters.any}}"],
                volumeMounts: [{name: work, mountPath: /w}, {name: "{{pod.name}}", mountPath: /p}]}
  - name: cleanup
    steps: [[{name: say, template: step}], [{name: done, template: step}]]
)";

TEST_CASE("validate checks: a well-formed Argo workflow passes every rule") {
  CHECK(Check(kArgo) == Lines{});
}

TEST_CASE("validate checks: Argo references, names and template types") {
  CHECK(Check(R"(apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata: {generateName: w-}
spec:
  entrypoint: mian
  onExit: cleanup
  hooks: {exit: {template: notify}}
  templates:
  - name: main
    steps:
    - - {name: a, template: work}
      - {name: a, template: work, hooks: {running: {template: nope}}}
    - - {name: b_c, templateRef: {name: lib, template: train}}
      - {name: d}
  - name: work
    container: {image: x}
  - name: work
)") == Lines{"spec.templates[2].name: Duplicate value: \"work\": name 'work' is not unique",
             "spec.entrypoint: template name 'mian' undefined [help: did you mean 'main'?]",
             "spec.onExit: template name 'cleanup' undefined",
             "spec.hooks.exit.template: template name 'notify' undefined",
             "spec.templates[0].steps[0][1].name: Duplicate value: \"a\": name 'a' is not unique",
             "spec.templates[0].steps[0][1].hooks.running.template: template name 'nope' "
             "undefined",
             "spec.templates[0].steps[1][0].name: Invalid value: \"b_c\": name 'b_c' is invalid: "
             "name must consist of alpha-numeric characters or '-', and must start with an "
             "alpha-numeric character",
             "spec.templates[0].steps[1][1].template: Required value: one of template, "
             "templateRef or inline is required",
             "spec.templates[2]: template type unspecified. choose one of: container, "
             "containerSet, steps, script, resource, dag, suspend, data, http, plugin"});
  CHECK(Check("apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nmetadata: {name: w}\n"
              "spec: {templates: [{name: main, suspend: {}}]}\n") ==
        Lines{"spec.entrypoint: Required value: spec.entrypoint is required [help: set "
              "entrypoint: main]"});
  // A WorkflowTemplate needs no entrypoint; its name is an object name of at most 63.
  CHECK(Check("apiVersion: argoproj.io/v1alpha1\nkind: WorkflowTemplate\nmetadata: {name: " +
              std::string(64, 'a') + "}\nspec: {templates: [{name: main, suspend: {}}]}\n") ==
        Lines{"metadata.name: workflow template name \"" + std::string(64, 'a') +
              "\" must not be more than 63 characters long (currently 64)"});
}

TEST_CASE("validate checks: Argo DAG dependencies, depends, targets and cycles") {
  CHECK(Check(R"(apiVersion: argoproj.io/v1alpha1
kind: WorkflowTemplate
metadata: {name: w}
spec:
  templates:
  - name: main
    dag:
      target: "train zz"
      tasks:
      - {name: prep, template: work}
      - {name: train, template: work, dependencies: [prepp]}
      - {name: report, template: work, depends: "train.Succeeded && eval"}
      - {name: a, template: work, dependencies: [b]}
      - {name: b, template: work, dependencies: [a]}
  - name: work
    container: {image: x}
)") == Lines{"spec.templates[0].dag.tasks[1].dependencies[0]: dependency 'prepp' not defined "
             "[help: did you mean 'prep'?]",
             "spec.templates[0].dag.tasks[2].depends: dependency 'eval' not defined",
             "spec.templates[0].dag.target: target 'zz' is not defined",
             "spec.templates[0].dag.tasks[4]: dependency cycle detected: a -> b -> a [help: a "
             "task cannot wait, directly or through others, for itself]"});
}

TEST_CASE("validate checks: Argo DAG shape: tasks, names after a digit, a task's onExit") {
  CHECK(Check(R"(apiVersion: argoproj.io/v1alpha1
kind: WorkflowTemplate
metadata: {name: w}
spec:
  templates:
  - name: empty
    dag: {tasks: []}
  - name: digits
    dag:
      tasks:
      - {name: 1st, template: work, onExit: clean}
      - {name: b, template: work, depends: 1st}
  - name: work
    container: {image: x}
)") == Lines{"spec.templates[0].dag.tasks: must have at least one task",
             "spec.templates[1].dag.tasks[0].name: name cannot begin with a digit when using "
             "either 'depends' or 'dependencies' [help: rename it, such as 'task-1st']",
             "spec.templates[1].dag.tasks[0].onExit: template name 'clean' undefined"});
  // Without depends or dependencies a name may begin with a digit.
  CHECK(Check("apiVersion: argoproj.io/v1alpha1\nkind: WorkflowTemplate\nmetadata: {name: w}\n"
              "spec: {templates: [{name: m, dag: {tasks: [{name: 1st, template: w}]}}, "
              "{name: w, suspend: {}}]}\n") == Lines{});
}

TEST_CASE("validate checks: Argo parameters a template references are declared") {
  CHECK(Check(R"(apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata: {name: w}
spec:
  entrypoint: main
  arguments: {parameters: [{name: lr}]}
  templates:
  - name: main
    inputs: {parameters: [{name: epochs}], artifacts: [{name: data, path: /data}]}
    container:
      image: x
      args: ["{{inputs.parameters.epoch}}", "{{ workflow.parameters.lrr }}",
             "{{inputs.artifacts.data.path}}", "{{inputs.artifacts.model.path}}"]
  - name: bare
    script: {image: x, source: "echo {{inputs.parameters}}"}
)") == Lines{"spec.templates[0].container.args[0]: failed to resolve "
             "{{inputs.parameters.epoch}} [help: did you mean 'epochs'?]",
             "spec.templates[0].container.args[1]: failed to resolve {{workflow.parameters.lrr}} "
             "[help: did you mean 'lr'?]",
             "spec.templates[0].container.args[3]: failed to resolve "
             "{{inputs.artifacts.model.path}} [help: declare it in the template's "
             "inputs.artifacts]"});
  // A WorkflowTemplate's workflow parameters may come from the Workflow that uses it.
  CHECK(Check("apiVersion: argoproj.io/v1alpha1\nkind: WorkflowTemplate\nmetadata: {name: w}\n"
              "spec: {templates: [{name: m, container: {image: x, args: "
              "[\"{{workflow.parameters.any}}\"]}}]}\n") == Lines{});
}

// What Argo resolves itself (validate.go's globals, common.SubstituteParams) passes; what it
// cannot resolve stays refused.
TEST_CASE("validate checks: Argo's own variables: parameters.json, inputs.parameters") {
  const char* with_parameters = R"(apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata: {generateName: w-}
spec:
  entrypoint: main
  arguments: {parameters: [{name: greeting, value: hi}]}
  templates:
  - name: main
    script:
      image: x
      source: |
        echo {{workflow.parameters.json}} {{workflow.parameters}} {{ workflow.parameters.greeting }}
        echo {{inputs.parameters}} {{workflow.name}} {{workflow.labels.json}} {{pod.name}}
        echo {{steps.a.outputs.result}} {{item}} {{=inputs.parameters.any}} )"
                                "{{\tinputs.parameters.tab}}\n";
  CHECK(Check(with_parameters) == Lines{});
  // Without a parameter, Argo sets neither workflow.parameters nor workflow.parameters.json.
  CHECK(Check(R"(apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata: {generateName: w-}
spec:
  entrypoint: main
  templates:
  - name: main
    container: {image: x, args: ["{{workflow.parameters.json}}", "{{workflow.parameters}}",
                                 "{{workflow.parameters.nope}}", "{{inputs.parameters.nope}}"]}
)") == Lines{"spec.templates[0].container.args[0]: failed to resolve "
             "{{workflow.parameters.json}} [help: Argo sets it when spec.arguments.parameters has "
             "a parameter]",
             "spec.templates[0].container.args[1]: failed to resolve {{workflow.parameters}} "
             "[help: Argo sets it when spec.arguments.parameters has a parameter]",
             "spec.templates[0].container.args[2]: failed to resolve "
             "{{workflow.parameters.nope}} [help: declare it in spec.arguments.parameters]",
             "spec.templates[0].container.args[3]: failed to resolve {{inputs.parameters.nope}} "
             "[help: declare it in the template's inputs.parameters]"});
}

// validateSteps and validateDAG resolve a steps or DAG template's steps, tasks, target and
// outputs, not its other fields.
TEST_CASE("validate checks: Argo resolves a steps or DAG template in its steps and outputs") {
  CHECK(Check(R"(apiVersion: argoproj.io/v1alpha1
kind: WorkflowTemplate
metadata: {name: w}
spec:
  templates:
  - name: s
    metadata: {annotations: {note: "{{inputs.parameters.nope}}"}}
    memoize: {key: "{{inputs.parameters.nope}}", cache: {configMap: {name: c}}}
    steps:
    - - {name: a, template: leaf, arguments: {parameters: [{name: p, value: "{{inputs.parameters.nope}}"}]}}
    outputs: {parameters: [{name: o, valueFrom: {parameter: "{{inputs.parameters.nope}}"}}]}
  - name: d
    synchronization: {mutex: {name: "{{inputs.parameters.nope}}"}}
    dag:
      target: "{{inputs.parameters.nope}}"
      tasks: [{name: a, template: leaf, when: "{{inputs.parameters.nope}} == 1"}]
  - name: leaf
    inputs: {parameters: [{name: p}]}
    suspend: {duration: "{{inputs.parameters.nope}}"}
)") == Lines{"spec.templates[0].steps[0][0].arguments.parameters[0].value: failed to resolve "
             "{{inputs.parameters.nope}} [help: declare it in the template's inputs.parameters]",
             "spec.templates[0].outputs.parameters[0].valueFrom.parameter: failed to resolve "
             "{{inputs.parameters.nope}} [help: declare it in the template's inputs.parameters]",
             "spec.templates[1].dag.tasks[0].when: failed to resolve {{inputs.parameters.nope}} "
             "[help: declare it in the template's inputs.parameters]",
             "spec.templates[1].dag.target: failed to resolve {{inputs.parameters.nope}} [help: "
             "declare it in the template's inputs.parameters]",
             "spec.templates[2].suspend.duration: failed to resolve {{inputs.parameters.nope}} "
             "[help: declare it in the template's inputs.parameters]"});
}

// The controller names a template's own container or script "main" (workflowpod.go); the names
// of sidecars, init containers and a containerSet's containers reach the pod as written.
TEST_CASE("validate checks: Argo names the main container, not the others") {
  CHECK(Check(R"(apiVersion: argoproj.io/v1alpha1
kind: WorkflowTemplate
metadata: {name: w}
spec:
  templates:
  - {name: a, container: {name: "", image: x}}
  - {name: b, script: {name: Not_A_Label, image: x, source: "true"}}
  - name: c
    initContainers: [{name: "", image: x}, {name: Init_1, image: x}]
    sidecars: [{name: Side_Car, image: x}]
    containerSet: {containers: [{name: "", image: x}, {name: main, image: x}]}
)") == Lines{"spec.templates[2].initContainers[0].name: Required value: initContainers must all "
             "have container name [help: name the container]",
             "spec.templates[2].initContainers[1].name: Invalid value: \"Init_1\": " +
                 testing::kLabel,
             "spec.templates[2].sidecars[0].name: Invalid value: \"Side_Car\": " + testing::kLabel,
             "spec.templates[2].containerSet.containers[0].name: Required value: name is required "
             "[help: name the container]"});
}

TEST_CASE("validate checks: a templateRef to a WorkflowTemplate of the same stream") {
  CHECK(Check(R"(apiVersion: argoproj.io/v1alpha1
kind: WorkflowTemplate
metadata: {name: lib}
spec: {templates: [{name: train, suspend: {}}]}
---
apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata: {name: run}
spec:
  entrypoint: main
  templates:
  - name: main
    dag:
      tasks:
      - {name: a, templateRef: {name: lib, template: train}}
      - {name: b, templateRef: {name: lib, template: trian}}
      - {name: c, templateRef: {name: elsewhere, template: any}}
      - {name: d, templateRef: {name: lib, template: train, clusterScope: true}}
)") == Lines{"stream doc2: spec.templates[0].dag.tasks[1].templateRef.template: template "
             "reference lib.trian not found [help: did you mean 'train'?]"});
}

const char* kCron = R"(apiVersion: argoproj.io/v1alpha1
kind: CronWorkflow
metadata: {name: nightly}
spec:
  schedules: ["*/5 * * * *", "0 2 * * mon-fri", "@every 1h30m", "@weekly",
              "CRON_TZ=Europe/Paris 0 1 1,15 JAN-dec SUN", "5/15 * * * ?"]
  timezone: America/New_York
  concurrencyPolicy: Forbid
  workflowSpec:
    entrypoint: main
    templates: [{name: main, suspend: {}}]
)";

TEST_CASE("validate checks: CronWorkflow schedules, time zone, concurrencyPolicy") {
  CHECK(Check(kCron) == Lines{});
  const std::string help =
      " [help: five fields: minute hour day-of-month month day-of-week, such as \"0 2 * * *\"]";
  CHECK(Check(R"(apiVersion: argoproj.io/v1alpha1
kind: CronWorkflow
metadata: {name: nightly}
spec:
  schedules: ["0 0 * * 7", "@every 5", "61 * * * *", "* * * *", "1-2-3 * * * *",
              "*/0 * * * *", "x * * * *", "@nightly", "CRON_TZ=Mars/Base 0 * * * *"]
  timezone: Europe/Pariss
  concurrencyPolicy: forbid
  startingDeadlineSeconds: -1
  workflowSpec:
    entrypoint: main
    templates: [{name: main, suspend: {}}]
)") == Lines{// robfig/cron's day of week runs 0-6.
             "spec.schedules[0]: cron schedule 0 0 * * 7 is malformed: end of range (7) above "
             "maximum (6): 7" +
                 help,
             "spec.schedules[1]: cron schedule @every 5 is malformed: failed to parse duration "
             "@every 5: time: missing unit in duration \"5\"" +
                 help,
             "spec.schedules[2]: cron schedule 61 * * * * is malformed: end of range (61) above "
             "maximum (59): 61" +
                 help,
             "spec.schedules[3]: cron schedule * * * * is malformed: expected exactly 5 fields, "
             "found 4: [* * * *]" +
                 help,
             "spec.schedules[4]: cron schedule 1-2-3 * * * * is malformed: too many hyphens: "
             "1-2-3" +
                 help,
             "spec.schedules[5]: cron schedule */0 * * * * is malformed: step of range should "
             "be a positive number: */0" +
                 help,
             "spec.schedules[6]: cron schedule x * * * * is malformed: failed to parse int from "
             "x: strconv.Atoi: parsing \"x\": invalid syntax" +
                 help,
             "spec.schedules[7]: cron schedule @nightly is malformed: unrecognized descriptor: "
             "@nightly" +
                 help,
             "spec.schedules[8]: cron schedule CRON_TZ=Mars/Base 0 * * * * is malformed: "
             "provided bad location Mars/Base: unknown time zone Mars/Base" +
                 help,
             "spec.concurrencyPolicy: 'forbid' is not a valid concurrencyPolicy [help: did you "
             "mean 'Forbid'?]",
             "spec.startingDeadlineSeconds: startingDeadlineSeconds must be positive",
             "spec.timezone: invalid timezone \"Europe/Pariss\": unknown time zone Europe/Pariss "
             "[help: did you mean 'Europe/Paris'?]"});
  CHECK(Check("apiVersion: argoproj.io/v1alpha1\nkind: CronWorkflow\nmetadata: {name: " +
              std::string(53, 'c') +
              "}\nspec: {workflowSpec: {entrypoint: m, templates: [{name: m, suspend: {}}]}}\n") ==
        Lines{"metadata.name: cron workflow name \"" + std::string(53, 'c') +
                  "\" must not be more than 52 characters long (currently 53)",
              "spec.schedules: Required value: cron workflow must have at least one schedule "
              "[help: add schedules: [\"0 * * * *\"]]"});
}

}  // namespace
}  // namespace flowc::validate
