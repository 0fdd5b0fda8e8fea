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

-- A request of the server's, as a plugin or a key of the doc's block sends it.
local function ask(method, params)
  local replies = vim.lsp.buf_request_sync(0, method, params, 10000) or {}
  for _, reply in pairs(replies) do
    if reply.result then return reply.result end
  end
  return nil
end
local function here(line, character)
  return { textDocument = vim.lsp.util.make_text_document_params(), position = { line = line, character = character } }
end
local checks = io.open("checks.txt", "w")

-- Hover over the first finding: its rule's documentation.
local first = vim.diagnostic.get(0)[1]
local hover = ask("textDocument/hover", here(first.lnum, first.col))
checks:write("hover\t", hover and hover.contents and hover.contents.value:match("^%*%*([%w-]+)%*%*") or "none", "\t", tostring(first.code or first.user_data.lsp.code), "\n")

-- Completion at the start of a new top-level key, then after a content rule's `action: `.
vim.api.nvim_buf_set_lines(0, 0, -1, false, { "webpolicy: 1", "name: typed", "content-rules:", "  - url-filter: ads", "    action: ", "" })
local labels = function(result)
  local names = {}
  for _, item in ipairs(result and (result.items or result) or {}) do names[#names + 1] = item.label end
  table.sort(names)
  return table.concat(names, ",")
end
checks:write("keys\t", labels(ask("textDocument/completion", here(5, 0))), "\n")
-- Where Neovim's completion starts replacing on `app-`: the whole word, hyphen included.
checks:write("word\t", vim.fn.match("app-", "\\k*$"), "\n")
checks:write("actions\t", labels(ask("textDocument/completion", here(4, 12))), "\n")
-- The item's own edit, as an editor that honours its range applies it: `app-` becomes the key.
vim.api.nvim_buf_set_lines(0, 0, -1, false, { "webpolicy: 1", "name: typed", "app-" })
for _, item in ipairs((function(r) return r and (r.items or r) or {} end)(ask("textDocument/completion", here(2, 4)))) do
  if item.label == "app-bound-domains" and item.textEdit then
    vim.lsp.util.apply_text_edits({ item.textEdit }, 0, "utf-16")
  end
end
checks:write("accepted\t", vim.api.nvim_buf_get_lines(0, 2, 3, false)[1], "\n")

-- Go to definition on an include's path.
vim.api.nvim_buf_set_lines(0, 0, -1, false, { "webpolicy: 1", "name: main", "include:", "  - shop.yaml", "" })
vim.wait(1000)
local definition = ask("textDocument/definition", here(3, 6))
if definition and definition[1] then definition = definition[1] end
checks:write("definition\t", definition and vim.fn.fnamemodify(vim.uri_to_fname(definition.uri), ":t") or "none", "\n")

-- The whole file's certain fixes, applied as the editor applies a code action.
vim.api.nvim_buf_set_lines(0, 0, -1, false, vim.fn.readfile("fix.yaml"))
vim.wait(1000)
local actions = ask("textDocument/codeAction", {
  textDocument = vim.lsp.util.make_text_document_params(),
  range = { start = { line = 0, character = 0 }, ["end"] = { line = vim.api.nvim_buf_line_count(0), character = 0 } },
  context = { diagnostics = {} },
}) or {}
for _, action in ipairs(actions) do
  if action.kind == "source.fixAll.webpolicy" and not action.title:find("unsafe") then
    vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
  end
end
vim.fn.writefile(vim.api.nvim_buf_get_lines(0, 0, -1, false), "fixed-in-editor.yaml")
checks:close()

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
