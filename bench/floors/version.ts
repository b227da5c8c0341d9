/**
 * The floor for `GET /api/v10/version`: plain node:http answering the same JSON, by the most
 * direct means. Not to be tuned down: it is what the reference server is measured against.
 */
import { createServer } from "node:http"

const body = JSON.stringify({ version: "0.1.0", api: 1, env: "prod" })
const port = Number(process.env.PORT ?? 0)

createServer((request, response) => {
  if (request.method === "GET" && request.url === "/api/v10/version") {
    response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
    response.end(body)
    return
  }
  response.writeHead(404, { "content-type": "application/json" })
  response.end('{"code":0,"message":"404: Not Found"}')
}).listen(port, "127.0.0.1", () => console.log(`floor listening on ${port}`))
