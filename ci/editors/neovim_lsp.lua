-- Run by neovim_lsp.sh inside headless Neovim, after init.lua (docs/editors.md's block) has
-- attached the server to policy.yaml: wait for its diagnostics, write them, then replace the
-- buffer with a half-typed text and write what the server says of it.
local severities = { "error", "warning", "info" }

local function dump(path)
  local out = io.open(path, "w")
  for _, d in ipairs(vim.diagnostic.get(0)) do
    out:write(vim.fn.json_encode({ d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code), severities[d.severity], d.lnum, d.col, d.message }), "\n")
  end
  out:close()
end

local function wait_for(predicate, what)
  if not vim.wait(20000, predicate, 50) then
    io.stderr:write("timed out waiting for " .. what .. "\n")
    vim.cmd("cquit 1")
  end
end

wait_for(function() return #vim.diagnostic.get(0) > 0 end, "the first diagnostics")
print("first diagnostics: " .. #vim.diagnostic.get(0))
dump("shown-before.jsonl")

-- The same buffer, edited into a half-typed policy (an unclosed quote), as typing would.
local before = vim.inspect(vim.diagnostic.get(0))
local lines = vim.fn.readfile("edited.yaml")
vim.api.nvim_buf_set_lines(0, 0, -1, false, lines)
wait_for(function() return vim.inspect(vim.diagnostic.get(0)) ~= before end, "the diagnostics of the edited text")
-- One more pause: a lint of an intermediate text may land first.
vim.wait(1000)
dump("shown-after.jsonl")
print("after the edit: " .. #vim.diagnostic.get(0))

-- A trace: its lenses, as the doc's block asks for them, each line's decision.
vim.cmd("edit shop.trace")
local trace = vim.api.nvim_get_current_buf()
wait_for(function()
  vim.lsp.codelens.refresh()
  vim.wait(200)
  return #vim.lsp.codelens.get(trace) > 0
end, "the trace's lenses")
local out = io.open("lenses.txt", "w")
for _, lens in ipairs(vim.lsp.codelens.get(trace)) do
  out:write(lens.range.start.line + 1, "\t", lens.command.title, "\n")
end
out:close()
print("lenses: " .. #vim.lsp.codelens.get(trace))
vim.cmd("qall!")
