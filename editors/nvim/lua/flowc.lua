-- Starts the flowc language server (`flowc lsp`, over stdio) for every buffer of filetype
-- `flow`, one server per project root (the nearest folder holding .git, else the file's
-- own folder). Neovim 0.8 and later use vim.lsp.start, which reuses a running client of the
-- same name and root; 0.7 starts clients with vim.lsp.start_client and attaches them itself.
--
--   require('flowc').setup()                                  -- flowc on PATH
--   require('flowc').setup({ cmd = { '/opt/flowc/bin/flowc', 'lsp' } })
local M = {}

M.defaults = { cmd = { 'flowc', 'lsp' } }

-- The folder that holds the nearest .git (a folder, or a file in a git worktree) above `path`.
function M.root_dir(path)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  while true do
    if vim.fn.isdirectory(dir .. '/.git') == 1 or vim.fn.filereadable(dir .. '/.git') == 1 then
      return dir
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      return vim.fn.fnamemodify(path, ':p:h')
    end
    dir = parent
  end
end

local clients_by_root = {} -- Neovim 0.7 only: root -> client id

function M.start(bufnr, opts)
  local config = {
    name = 'flowc',
    cmd = opts.cmd,
    root_dir = M.root_dir(vim.api.nvim_buf_get_name(bufnr)),
  }
  if vim.lsp.start then
    return vim.lsp.start(config, { bufnr = bufnr })
  end
  local id = clients_by_root[config.root_dir]
  if not id or not vim.lsp.get_client_by_id(id) then
    id = vim.lsp.start_client(config)
    if not id then
      return nil -- start_client has reported why (e.g. no flowc on PATH)
    end
    clients_by_root[config.root_dir] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

function M.setup(opts)
  opts = vim.tbl_extend('force', M.defaults, opts or {})
  local group = vim.api.nvim_create_augroup('flowc', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = 'flow',
    callback = function(args)
      M.start(args.buf, opts)
    end,
  })
end

return M
