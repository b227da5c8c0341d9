/**
 * The floor for the gateway fan-out: a plain `ws` server that accepts sockets and, on
 * `POST /publish`, serialises one dispatch once and sends it to every socket (the same frame shape,
 * the sequence number spliced in per socket as the gateway does). Not to be tuned down.
 */
import { createServer } from "node:http"
import { type WebSocket, WebSocketServer } from "ws"

const port = Number(process.env.PORT ?? 0)
const sockets = new Map<WebSocket, number>()
const server = createServer((request, response) => {
  if (request.method === "POST" && request.url === "/publish") {
    const data = JSON.stringify({ channel_id: "1", guild_id: "2", user_id: "3", timestamp: Date.now() })
    const head = '{"op":0,"t":"TYPING_START","s":'
    const tail = `,"d":${data}}`
    for (const [socket, seq] of sockets) {
      sockets.set(socket, seq + 1)
      socket.send(`${head}${seq + 1}${tail}`)
    }
    response.writeHead(204).end()
    return
  }
  response.writeHead(request.url === "/ready" ? 200 : 404).end()
})
const wss = new WebSocketServer({ server, path: "/gateway" })
wss.on("connection", (socket) => {
  sockets.set(socket, 0)
  socket.on("close", () => sockets.delete(socket))
})
server.listen(port, "127.0.0.1", () => console.log(`ws floor listening on ${port}`))
