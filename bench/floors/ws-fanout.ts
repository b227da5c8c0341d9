/**
 * The floor for the gateway fan-out: a plain `ws` server that accepts sockets and, on
 * `POST /publish`, serialises one dispatch once and sends it to every socket (the same frame as the
 * gateway's TYPING_START, byte for byte in length, the sequence number spliced in per socket as the
 * gateway does). Not to be tuned down.
 */
import { createServer } from "node:http"
import { type WebSocket, WebSocketServer } from "ws"

const port = Number(process.env.PORT ?? 0)
// Ids as long as the gateway's (snowflakes of 2026): the receiving side reads as many bytes per frame.
const CHANNEL_ID = "1575485505565360129"
const GUILD_ID = "1575485505561165824"
const USER_ID = "1575485505389199360"
const sockets = new Map<WebSocket, number>()
const server = createServer((request, response) => {
  if (request.method === "POST" && request.url === "/publish") {
    // the gateway's TYPING_START to the byte: snowflake ids (19 digits), the time in seconds
    const data = JSON.stringify({
      channel_id: CHANNEL_ID,
      guild_id: GUILD_ID,
      user_id: USER_ID,
      timestamp: Math.floor(Date.now() / 1000)
    })
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
