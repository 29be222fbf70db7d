-- wrk script of the contests bench's spread (tests/bench/spread.ts): cycles through the requests of
-- the file named by SPREAD_FILE (one per line: "GET <path>" or "PUT <path> <json body>"), in order,
-- and counts the list cache's answers (x-list-cache: hit / miss) and non-2xx answers.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  requests = {}
  for line in io.lines(os.getenv("SPREAD_FILE")) do
    local method, path, body = line:match("^(%u+) (%S+) ?(.*)$")
    if method == "GET" then
      requests[#requests + 1] = wrk.format("GET", path)
    else
      -- Given headers replace wrk's (-H) ones: copy those (token, cookie) and add the write's.
      local headers = {}
      for name, value in pairs(wrk.headers) do headers[name] = value end
      headers["content-type"] = "application/json"
      headers["x-xsrf-token"] = os.getenv("SPREAD_XSRF")
      requests[#requests + 1] = wrk.format(method, path, headers, body)
    end
  end
  index = 0
  hits = 0
  misses = 0
  failures = 0
end

function request()
  index = index % #requests + 1
  return requests[index]
end

function response(status, headers, body)
  local cache = headers["x-list-cache"]
  if cache == "hit" then hits = hits + 1 elseif cache == "miss" then misses = misses + 1 end
  if status >= 300 then failures = failures + 1 end
end

function done(summary, latency, requests)
  local h, m, f = 0, 0, 0
  for _, thread in ipairs(threads) do
    h = h + thread:get("hits")
    m = m + thread:get("misses")
    f = f + thread:get("failures")
  end
  io.write(string.format("SPREAD hits %d misses %d failures %d\n", h, m, f))
end
