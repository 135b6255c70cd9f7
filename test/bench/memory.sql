-- Backend memory growth over 20,000 tool calls in one session, after a
-- warm-up of 2,000 (which fills the plan cache and the catalog caches).
CREATE TEMP TABLE mem (phase text, bytes bigint);
CREATE FUNCTION pg_temp.calls(n int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN 1..n LOOP
    PERFORM ai_tool_call('select_query', jsonb_build_object('table', 'bench', 'where', jsonb_build_object('id', i)));
    PERFORM ai_tool_call('execute_sql', jsonb_build_object('sql', 'SELECT count(*) FROM bench WHERE id < $1', 'params', jsonb_build_array(i)));
  END LOOP;
END $$;
SELECT pg_temp.calls(1000);
INSERT INTO mem SELECT 'before', sum(total_bytes) FROM pg_backend_memory_contexts;
SELECT pg_temp.calls(10000);
INSERT INTO mem SELECT 'after', sum(total_bytes) FROM pg_backend_memory_contexts;
SELECT (SELECT bytes FROM mem WHERE phase = 'after') - (SELECT bytes FROM mem WHERE phase = 'before') AS growth_bytes;
