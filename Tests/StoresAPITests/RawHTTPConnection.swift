import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An HTTP/1.1 client on a plain TCP socket to 127.0.0.1, for what a well-behaved client cannot
/// do: send a request in parts, with pauses the test controls.
final class RawHTTPConnection {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  struct Response {
    let status: Int
    let headers: [String: String]
    let body: String
  }

  private let socketDescriptor: Int32

  /// Connects to 127.0.0.1:`port`; reads give up after 30 seconds rather than hang a test.
  init(port: Int) throws {
    #if canImport(Glibc)
      socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      socketDescriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard socketDescriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(socketDescriptor)
      throw Failure(description: "connect to port \(port): errno \(errno)")
    }
  }

  deinit { close(socketDescriptor) }

  /// Sends `text` as it is.
  func send(_ text: String) throws {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let sent = bytes.withUnsafeBytes { write(socketDescriptor, $0.baseAddress, $0.count) }
      guard sent > 0 else { throw Failure(description: "send: errno \(errno)") }
      bytes = bytes.dropFirst(sent)
    }
  }

  /// Reads one response (its body by Content-Length).
  func readResponse() throws -> Response {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    func readMore() throws {
      let count = buffer.withUnsafeMutableBytes { read(socketDescriptor, $0.baseAddress, $0.count) }
      guard count > 0 else {
        throw Failure(description: "the connection ended after \(received.count) bytes (errno \(errno))")
      }
      received += buffer[..<count]
    }
    let separator = Array("\r\n\r\n".utf8)
    var headEnd: Int?
    while headEnd == nil {
      try readMore()
      headEnd = received.indices.dropLast(3).first { Array(received[$0..<$0 + 4]) == separator }
    }
    let head = String(decoding: received[..<headEnd!], as: UTF8.self).components(separatedBy: "\r\n")
    let status = Int(head[0].split(separator: " ")[1]) ?? 0
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
        in: .whitespaces)
    }
    let length = Int(headers["content-length"] ?? "0") ?? 0
    let bodyStart = headEnd! + 4
    while received.count < bodyStart + length { try readMore() }
    return Response(
      status: status, headers: headers,
      body: String(decoding: received[bodyStart..<bodyStart + length], as: UTF8.self))
  }

  /// GET `path` on a connection of its own.
  static func get(port: Int, _ path: String) throws -> Response {
    let connection = try RawHTTPConnection(port: port)
    try connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    return try connection.readResponse()
  }
}
