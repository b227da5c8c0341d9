/**
 * A probe for `bench/idle.ts` (`IDLE_PROBE=1`), preloaded into a server with `-r`: on SIGUSR2 it
 * prints to stderr where the process's memory is (`process.memoryUsage()`, each V8 heap space's
 * committed and used size, the code and external figures of `v8.getHeapStatistics()`). It allocates
 * nothing until then. With MEMORY_PROBE_SNAPSHOT_DIR it then writes a heap snapshot there too.
 */
const v8 = require("node:v8")

const mb = (bytes) => (bytes / 1048576).toFixed(1)

process.on("SIGUSR2", () => {
  const usage = process.memoryUsage()
  const heap = v8.getHeapStatistics()
  const spaces = v8
    .getHeapSpaceStatistics()
    .map((space) => `${space.space_name} ${mb(space.space_used_size)}/${mb(space.space_size)}`)
    .join(", ")
  const code = v8.getHeapCodeStatistics()
  process.stderr.write(
    `[memory ${process.pid}] rss ${mb(usage.rss)} heapTotal ${mb(usage.heapTotal)} heapUsed ${mb(usage.heapUsed)} ` +
      `external ${mb(usage.external)} arrayBuffers ${mb(usage.arrayBuffers)} malloced ${mb(heap.malloced_memory)} ` +
      `(peak ${mb(heap.peak_malloced_memory)}) physical ${mb(heap.total_physical_size)}\n` +
      `[memory ${process.pid}] spaces used/size MB: ${spaces}\n` +
      `[memory ${process.pid}] code: bytecode+metadata ${mb(code.bytecode_and_metadata_size)} ` +
      `code+metadata ${mb(code.code_and_metadata_size)} external scripts ${mb(code.external_script_source_size)} ` +
      `cpu profiler metadata ${mb(code.cpu_profiler_metadata_size)}\n`
  )
  const dir = process.env.MEMORY_PROBE_SNAPSHOT_DIR
  if (dir !== undefined) v8.writeHeapSnapshot(require("node:path").join(dir, `idle-${process.pid}.heapsnapshot`))
})
