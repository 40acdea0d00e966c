-- *.flow files are the flow language (flowc). Neovim sources ftdetect/*.lua of every 'runtimepath'
-- entry: add editors/nvim to it (or copy this folder into ~/.config/nvim).
if vim.filetype and vim.filetype.add then
  vim.filetype.add({ extension = { flow = 'flow' } })
end
-- Before 0.8 Neovim detects filetypes with filetype.vim unless g:do_filetype_lua is set, and
-- filetype.vim never reads vim.filetype.add's table.
if vim.fn.has('nvim-0.8') == 0 then
  vim.cmd([[autocmd BufRead,BufNewFile *.flow setfiletype flow]])
end
