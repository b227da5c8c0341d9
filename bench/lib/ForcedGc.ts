/**
 * A full garbage collection in another Node process, from outside: the process is started with
 * `--inspect-port=<port>` (which opens nothing by itself); SIGUSR1 opens its inspector on that port
 * and `HeapProfiler.collectGarbage` collects. Used to tell what RSS is garbage not yet collected
 * and what is kept (a heap snapshot collects too, but writing it takes hundreds of MB itself).
 */
import WebSocket from "ws"

export const flags = (port: number): ReadonlyArray<string> => [`--inspect-port=127.0.0.1:${port}`]

export const collect = async (pid: number, port: number): Promise<void> => {
  process.kill(pid, "SIGUSR1")
  const deadline = Date.now() + 10_000
  let url: string | undefined
  while (url === undefined) {
    const targets = await fetch(`http://127.0.0.1:${port}/json/list`)
      .then((answer) => answer.json() as Promise<ReadonlyArray<{ webSocketDebuggerUrl?: string }>>)
      .catch(() => [])
    url = targets[0]?.webSocketDebuggerUrl
    if (url === undefined) {
      if (Date.now() > deadline) throw new Error("the server's inspector did not open")
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  const socket = new WebSocket(url)
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => socket.send(JSON.stringify({ id: 1, method: "HeapProfiler.collectGarbage" })))
    socket.on("message", (data) => {
      if (String(data).includes('"id":1')) resolve()
    })
    socket.once("error", reject)
  })
  socket.close()
  // freed pages go back to the system shortly after
  await new Promise((resolve) => setTimeout(resolve, 1000))
}
