-- cardgame scripts in Neovim (0.11 or later): put this file in ~/.config/nvim/plugin/ (docs/editors.md).
vim.filetype.add({ extension = { cardgame = "cardgame" } })

vim.lsp.config("cardgame", {
  cmd = { "cardgame", "lsp" },
  filetypes = { "cardgame" },
  root_markers = { ".git" },
})
vim.lsp.enable("cardgame")

-- Comments for `gc`.
vim.api.nvim_create_autocmd("FileType", {
  pattern = "cardgame",
  callback = function() vim.bo.commentstring = "// %s" end,
})
