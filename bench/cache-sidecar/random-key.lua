-- wrk script: GET /cache/v1/raw/key-<random> over the BENCH_KEYS keys loaded by BenchKafka.
local n = tonumber(os.getenv("BENCH_KEYS") or "1000000")
math.randomseed(42)
request = function()
  return wrk.format("GET", "/cache/v1/raw/key-" .. math.random(0, n - 1))
end
