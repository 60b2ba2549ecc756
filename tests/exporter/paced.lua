-- wrk script for hostile_test.py: every connection waits 10 ms between requests, so that 10
-- connections make about 1,000 requests per second (wrk itself has no rate option).
wrk.headers["Accept-Encoding"] = "gzip"
function delay()
    return 10
end
