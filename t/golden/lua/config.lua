#!/usr/bin/env lua
-- Load a configuration table.
--[[ A long comment
with ]] --[==[ nested-looking ]] text ]==]
local M = {}

local template = [[
line one
line "two"]]
local other = [=[ contains ]] and ]=]

function M.load(path, opts)
  opts = opts or {}
  local f = assert(io.open(path, 'r'))
  local n = #opts + 1 // 2 >> 1
  if n ~= 0 and n <= 10 then
    print("loaded " .. path .. "\t\"ok\"", 3.14, 0x1p4, 1e+10)
  end
  return setmetatable({}, { __index = M }), ...
end

return M
