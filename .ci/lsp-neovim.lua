-- Neovim's own LSP client against `gpulint lsp` (run by .ci/lsp-neovim; Debian bookworm's Neovim 0.7: vim.lsp.start_client,
-- pushed diagnostics). Opens a broken cluster and a job that runs on it, waits for their diagnostics, asks for the hover
-- on the cluster's finding, renames the cluster in its buffer (unsaved) and waits for the job's diagnostics to follow,
-- then writes what it saw to $OUT, one line each, for the CI script to check.
local dir, out, cmd = os.getenv('DIR'), os.getenv('OUT'), os.getenv('GPULINT')
local lines = {}
local function say(s) table.insert(lines, s) end
local function finish() vim.fn.writefile(lines, out); vim.cmd('qa!') end
local start = vim.loop.hrtime()

local function main()

vim.cmd('edit ' .. dir .. '/job.yaml')
local job = vim.api.nvim_get_current_buf()
vim.cmd('edit ' .. dir .. '/cluster.yaml')
local cluster = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({ name = 'gpulint', cmd = { cmd, 'lsp' }, root_dir = dir })
vim.lsp.buf_attach_client(job, id)
vim.lsp.buf_attach_client(cluster, id)

local function diagnostics(buf)
  local got = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(got, string.format('%s %d:%d-%d:%d %s', d.code or '?', d.lnum, d.col, d.end_lnum, d.end_col, d.message))
  end
  table.sort(got)
  return got
end
local function has(buf, code)
  for _, d in ipairs(vim.diagnostic.get(buf)) do if d.code == code then return true end end
  return false
end

if not vim.wait(60000, function() return has(cluster, 'UNIT001') and has(job, 'PAR002') end, 20) then
  say('TIMEOUT first diagnostics'); finish(); return
end
say(string.format('first-diagnostics-ms %d', (vim.loop.hrtime() - start) / 1e6))
for _, l in ipairs(diagnostics(cluster)) do say('cluster ' .. l) end
for _, l in ipairs(diagnostics(job)) do say('job ' .. l) end

local d = vim.diagnostic.get(cluster)[1]
local text = vim.api.nvim_buf_get_lines(cluster, d.lnum, d.lnum + 1, false)[1]
local _, u16 = vim.str_utfindex(text, d.col)
local hover = vim.lsp.buf_request_sync(cluster, 'textDocument/hover', {
  textDocument = { uri = vim.uri_from_bufnr(cluster) }, position = { line = d.lnum, character = u16 } }, 10000)
for _, r in pairs(hover or {}) do
  if r.result then say('hover ' .. vim.split(r.result.contents.value, '\n')[1]) end
end

-- the cluster renamed in its buffer, not saved: the job no longer finds its cluster
local t = vim.loop.hrtime()
vim.api.nvim_buf_set_lines(cluster, 1, 2, false, { 'name: pod2' })
if not vim.wait(30000, function() return has(job, 'SYN003') end, 5) then
  say('TIMEOUT cross-file'); finish(); return
end
say(string.format('cross-file-ms %d', (vim.loop.hrtime() - t) / 1e6))
for _, l in ipairs(diagnostics(job)) do say('job-after ' .. l) end

vim.lsp.stop_client(id)
finish()
end

local ok, err = pcall(main)
if not ok then say('ERROR ' .. tostring(err)); finish() end
