// The framework's ceiling for `scripts/service_benchmark.py`: a Hummingbird 2 app whose one route
// answers a constant 64-byte JSON body, so wrk driving it measures what the framework, SwiftNIO
// and loopback cost per request on this machine, with no work behind the route. The service's
// routes are reported as a share of this figure (DESIGN §10).
//
//   hummingbird-ceiling [--hostname 127.0.0.1] [--port 8080]     (--port 0: a free port)
//
// Routes: GET /ceiling (the constant body), GET /readyz (200, empty). On start it prints one line,
// "hummingbird-ceiling listening on HOST:PORT", with the port actually bound.
import Hummingbird
import NIOCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func option(_ name: String, default value: String) -> String {
  let args = CommandLine.arguments
  if let i = args.firstIndex(of: name), i + 1 < args.count { return args[i + 1] }
  return value
}

if CommandLine.arguments.contains("--help") || CommandLine.arguments.contains("-h") {
  print("usage: hummingbird-ceiling [--hostname 127.0.0.1] [--port 8080]   (--port 0: a free port)")
  print("GET /ceiling answers a constant 64-byte JSON body; GET /readyz answers 200.")
  exit(0)
}

let hostname = option("--hostname", default: "127.0.0.1")
guard let port = Int(option("--port", default: "8080")), (0...65535).contains(port) else {
  print("hummingbird-ceiling: --port takes a number from 0 to 65535")
  exit(64)
}

/// 64 bytes exactly (checked below), the size DESIGN §10's anchor names.
let body = #"{"status":"ok","service":"hummingbird-ceiling","pad":"xxxxxxxx"}"#
precondition(body.utf8.count == 64)
let bodyBuffer = ByteBuffer(string: body)

let router = Router()
router.get("ceiling") { _, _ -> Response in
  Response(
    status: .ok,
    headers: [.contentType: "application/json"],
    body: .init(byteBuffer: bodyBuffer)
  )
}
router.get("readyz") { _, _ -> HTTPResponse.Status in .ok }

let app = Application(
  router: router,
  configuration: .init(address: .hostname(hostname, port: port), serverName: nil),
  onServerRunning: { channel in
    let bound = channel.localAddress?.port ?? port
    print("hummingbird-ceiling listening on \(hostname):\(bound)")
    fflush(nil)  // all streams: the line reaches a pipe at once
  }
)
try await app.runService()
