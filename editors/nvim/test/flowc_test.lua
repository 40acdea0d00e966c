-- Headless test of editors/nvim, run by ctest (tests/CMakeLists.txt, nvim_editor):
--   nvim --headless -u NONE -i NONE --cmd 'set rtp^=editors/nvim' -c 'luafile THIS'
-- Checks that a .flow file gets filetype flow, its ftplugin and syntax (a # in a string is
-- string, after code a comment), and that lua/flowc.lua loads and starts `flowc lsp` at the
-- nearest .git with whichever LSP entry point this Neovim has (both are exercised, the one
-- it lacks stood in for). Exits 0 when everything holds, 1 with each failure on stderr.
local failures = {}
local function check(ok, message)
  if not ok then
    table.insert(failures, message)
  end
end
local function equal(actual, expected, what)
  check(vim.deep_equal(actual, expected),
    string.format('%s: expected %s, got %s', what, vim.inspect(expected), vim.inspect(actual)))
end

local ok, err = pcall(function()
  vim.cmd('filetype plugin on')
  vim.cmd('syntax on')

  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir .. '/project/.git', 'p')
  vim.fn.mkdir(dir .. '/project/flows', 'p')
  local file = dir .. '/project/flows/demo.flow'
  vim.fn.writefile({
    '@kubernetes(cpu=2, image="python:3.12") # the image',
    'flow demo {',
    '  param epochs: int = 3',
    '  step start {',
    '    run "echo \\"# not a comment\\" {{epochs}}" # a comment',
    '    next end',
    '  }',
    '  step end {',
    '    run """a # raw',
    '# still raw"""',
    '  }',
    '}',
  }, file)
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  equal(vim.bo.filetype, 'flow', 'filetype')
  equal(vim.bo.commentstring, '# %s', 'commentstring')

  local function group(line, text, nth)
    local col = 0
    for _ = 1, nth or 1 do
      col = vim.fn.stridx(vim.fn.getline(line), text, col) + 1
    end
    check(col > 0, string.format('%q not on line %d', text, line))
    return vim.fn.synIDattr(vim.fn.synID(line, col, 1), 'name')
  end
  equal(group(1, '@kubernetes'), 'flowDecorator', '@kubernetes')
  equal(group(1, 'cpu'), 'flowArgument', 'cpu=')
  equal(group(1, '2'), 'flowNumber', '2')
  equal(group(1, 'python'), 'flowString', 'a string')
  equal(group(1, '#'), 'flowComment', 'a comment after code')
  equal(group(2, 'flow'), 'flowDeclaration', 'flow')
  equal(group(2, 'demo'), 'flowName', 'the flow name')
  equal(group(3, 'epochs'), 'flowParamName', 'the param name')
  equal(group(3, 'int'), 'flowType', 'the param type')
  equal(group(5, 'run'), 'flowKeyword', 'run')
  equal(group(5, '\\"'), 'flowEscape', 'an escaped quote')
  equal(group(5, '#'), 'flowString', 'a # inside a string')
  equal(group(5, '{{'), 'flowReference', 'a reference')
  equal(group(5, '#', 2), 'flowComment', 'the comment after the string')
  equal(group(6, 'end'), '', 'a next target')
  equal(group(9, '#'), 'flowRawString', 'a # inside a raw string')
  equal(group(10, '#'), 'flowRawString', 'a raw string\'s second line')

  -- lua/flowc.lua: the root is the folder holding .git; the server is `flowc lsp`.
  local flowc = require('flowc')
  equal(flowc.root_dir(file), dir .. '/project', 'root_dir')
  equal(flowc.root_dir('/'), '/', 'root_dir without a .git')

  local real = { start = vim.lsp.start, start_client = vim.lsp.start_client,
                 attach = vim.lsp.buf_attach_client, get = vim.lsp.get_client_by_id }
  local calls = {}
  -- As Neovim 0.8+: vim.lsp.start.
  vim.lsp.start = function(config, opts)
    table.insert(calls, { 'start', config, opts })
    return 7
  end
  flowc.setup({ cmd = { '/opt/flowc/bin/flowc', 'lsp' } })
  vim.cmd('doautocmd FileType flow')
  equal(calls, { { 'start', { name = 'flowc', cmd = { '/opt/flowc/bin/flowc', 'lsp' },
                               root_dir = dir .. '/project' }, { bufnr = vim.fn.bufnr() } } },
        'vim.lsp.start')

  -- As Neovim 0.7: vim.lsp.start_client once per root, then buf_attach_client per buffer.
  calls = {}
  vim.lsp.start = nil
  vim.lsp.start_client = function(config)
    table.insert(calls, { 'start_client', config })
    return 3
  end
  vim.lsp.get_client_by_id = function(id)
    return id == 3 and {} or nil
  end
  vim.lsp.buf_attach_client = function(bufnr, id)
    table.insert(calls, { 'attach', bufnr, id })
  end
  flowc.setup()
  vim.cmd('doautocmd FileType flow')
  vim.cmd('doautocmd FileType flow')
  local buf = vim.fn.bufnr()
  equal(calls, { { 'start_client', { name = 'flowc', cmd = { 'flowc', 'lsp' },
                                     root_dir = dir .. '/project' } },
                 { 'attach', buf, 3 }, { 'attach', buf, 3 } }, 'vim.lsp.start_client')
  vim.lsp.start, vim.lsp.start_client = real.start, real.start_client
  vim.lsp.buf_attach_client, vim.lsp.get_client_by_id = real.attach, real.get
  vim.fn.delete(dir, 'rf')
end)
check(ok, 'error: ' .. tostring(err))

if #failures > 0 then
  io.stderr:write(table.concat(failures, '\n') .. '\n')
  vim.cmd('cquit 1')
end
io.stdout:write(string.format('nvim %s: editors/nvim passed\n', tostring(vim.version().major) ..
  '.' .. vim.version().minor .. '.' .. vim.version().patch))
vim.cmd('qall!')
