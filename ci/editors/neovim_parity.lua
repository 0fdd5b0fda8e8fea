-- Run by neovim_lsp.sh inside headless Neovim after init.lua (docs/editors.md's block): opens
-- every policy named in fixtures.txt in turn, as a user opens a file, waits until the server has
-- published for it, and writes what the editor then holds for every file into parity.jsonl —
-- rule, severity, range and message as Neovim shows them, the notes as the server related them.
-- A file the server leaves alone (not a policy) gets no publication; that is written too.
local severities = { "error", "warning", "info" }
local published = {}
local default = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
  default(err, result, ctx, config)
  if result then published[result.uri] = (published[result.uri] or 0) + 1 end
end

local out = io.open("parity.jsonl", "w")
for _, path in ipairs(vim.fn.readfile("fixtures.txt")) do
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local uri = vim.uri_from_bufnr(0)
  local arrived = vim.wait(2000, function() return published[uri] ~= nil end, 20)
  -- Findings of includes are published on their own files, just before or after.
  vim.wait(300)
  local record = { fixture = path, published = arrived, diagnostics = {} }
  for _, d in ipairs(vim.diagnostic.get()) do
    local lsp = d.user_data and d.user_data.lsp or {}
    local notes = {}
    for _, related in ipairs(lsp.relatedInformation or {}) do
      notes[#notes + 1] = { related.message, vim.fn.fnamemodify(vim.uri_to_fname(related.location.uri), ":."), related.location.range.start.line }
    end
    record.diagnostics[#record.diagnostics + 1] = {
      file = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(d.bufnr), ":."),
      key = { d.code or lsp.code, severities[d.severity], d.lnum, d.col, d.end_lnum, d.end_col, d.message },
      notes = notes,
    }
  end
  out:write(vim.fn.json_encode(record), "\n")
  published[uri] = nil
  vim.cmd("bwipeout!")
end
out:close()
vim.cmd("qall!")
