import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An HTTP/1.1 client on a plain TCP socket to 127.0.0.1, for what a well-behaved client cannot
/// do: send a request in parts, with pauses the test controls, keep a connection for many
/// requests, pipeline them.
///
/// Blocking: use it from a thread of its own (`ServerProcess.onThread`), not from a thread of
/// Swift's cooperative pool. `@unchecked Sendable` because a test hands a connection from the
/// thread that opened it to the one that finishes it; one thread uses it at a time.
final class RawHTTPConnection: @unchecked Sendable {
  struct Failure: Error, CustomStringConvertible {
    let description: String
    /// The `errno` of the call that failed; 0 when the peer ended the connection.
    var code: Int32 = 0
  }

  struct Response {
    let status: Int
    let headers: [String: String]
    let body: String

    /// The body parsed as a JSON object; `nil` when it is not one.
    var json: [String: Any]? {
      try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
    }
  }

  private let socketDescriptor: Int32
  /// Bytes read past the end of the last response: the start of the next one when requests are
  /// pipelined.
  private var pending: [UInt8] = []

  /// Connects to 127.0.0.1:`port`; a read that waits `timeout` seconds fails rather than hang a
  /// test.
  /// - Parameter receiveBufferBytes: The socket's receive buffer (`SO_RCVBUF`), small for a
  ///   client that reads slowly; the system's default when `nil`.
  init(port: Int, timeout: Int = 10, receiveBufferBytes: Int32? = nil) throws {
    // The descriptor is a local until the connection is made: once `socketDescriptor` is set, a
    // throw runs `deinit`, and a second `close` could close a descriptor another thread has just
    // been given the same number for.
    // Close-on-exec: a process another test starts meanwhile must not inherit the connection and
    // hold it open after this one closes it.
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
      if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    #endif
    guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)", code: errno) }
    if var size = receiveBufferBytes {
      setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var time = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    #if canImport(Darwin)
      // A write to a connection the server closed must fail, not end the test process.
      var one: Int32 = 1
      setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    // A signal may interrupt the call (EINTR); the connection goes on being made, and is made
    // once the socket turns writable.
    let code = connected == 0 ? 0 : errno == EINTR ? Self.connectionError(descriptor, timeout) : errno
    guard code == 0 else {
      close(descriptor)
      throw Failure(description: "connect to port \(port): errno \(code)", code: code)
    }
    socketDescriptor = descriptor
  }

  /// The outcome of a connection attempt interrupted by a signal: 0 once made, else its `errno`.
  private static func connectionError(_ descriptor: Int32, _ timeout: Int) -> Int32 {
    var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
    var ready = poll(&request, 1, Int32(timeout * 1000))
    while ready < 0 && errno == EINTR { ready = poll(&request, 1, Int32(timeout * 1000)) }
    guard ready > 0 else { return ready == 0 ? ETIMEDOUT : errno }
    var error: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return errno }
    return error
  }

  deinit { close(socketDescriptor) }

  /// True when a connection to 127.0.0.1:`port` is refused: nothing listens there any more.
  static func isRefused(port: Int) -> Bool {
    do {
      _ = try RawHTTPConnection(port: port)
      return false
    } catch {
      return (error as? Failure)?.code == ECONNREFUSED
    }
  }

  /// Sends `text` as it is.
  func send(_ text: String) throws {
    #if canImport(Glibc)
      // A write to a connection the server closed must fail, not end the test process.
      let flags = Int32(MSG_NOSIGNAL)
    #else
      let flags: Int32 = 0
    #endif
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let sent = bytes.withUnsafeBytes { sendBytes(socketDescriptor, $0.baseAddress, $0.count, flags) }
      // Interrupted by a signal before anything was sent: send again.
      if sent < 0 && errno == EINTR { continue }
      guard sent > 0 else { throw Failure(description: "send: errno \(errno)", code: errno) }
      bytes = bytes.dropFirst(sent)
    }
  }

  /// Reads more bytes into `pending`.
  private func readMore() throws {
    var buffer = [UInt8](repeating: 0, count: 65536)
    var count = -1
    repeat {
      count = buffer.withUnsafeMutableBytes { read(socketDescriptor, $0.baseAddress, $0.count) }
      // Interrupted by a signal before anything arrived: read again.
    } while count < 0 && errno == EINTR
    guard count > 0 else {
      let code = count == 0 ? 0 : errno
      throw Failure(
        description: count == 0
          ? "the server ended the connection (\(pending.count) bytes unread)"
          : "read: errno \(code) (\(pending.count) bytes unread)",
        code: code)
    }
    pending += buffer[..<count]
  }

  /// Reads one response (its body by Content-Length), leaving what follows it for the next call.
  func readResponse() throws -> Response {
    let separator = Array("\r\n\r\n".utf8)
    var headEnd: Int?
    var searched = 0
    while headEnd == nil {
      headEnd = pending.indices.dropFirst(searched).dropLast(3).first {
        pending[$0] == separator[0] && Array(pending[$0..<$0 + 4]) == separator
      }
      if headEnd == nil {
        searched = max(0, pending.count - 3)
        try readMore()
      }
    }
    let head = String(decoding: pending[..<headEnd!], as: UTF8.self).components(separatedBy: "\r\n")
    let statusParts = head[0].split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
      throw Failure(description: "not an HTTP status line: \(head[0])")
    }
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
        in: .whitespaces)
    }
    let length = Int(headers["content-length"] ?? "0") ?? 0
    let bodyStart = headEnd! + 4
    while pending.count < bodyStart + length { try readMore() }
    let body = String(decoding: pending[bodyStart..<bodyStart + length], as: UTF8.self)
    pending.removeFirst(bodyStart + length)
    return Response(status: status, headers: headers, body: body)
  }

  /// Waits, reading nothing, until the server has sent something (or closed the connection);
  /// false when `seconds` pass first.
  func waitUntilReadable(seconds: Double) -> Bool {
    guard pending.isEmpty else { return true }
    var request = pollfd(fd: socketDescriptor, events: Int16(POLLIN), revents: 0)
    return poll(&request, 1, Int32(seconds * 1000)) == 1
  }

  /// The status line of the response on its way (`HTTP/1.1 200 OK`), read and kept for
  /// `readResponse`.
  func statusLine() throws -> String {
    while pending.firstRange(of: Array("\r\n".utf8)) == nil { try readMore() }
    let end = pending.firstRange(of: Array("\r\n".utf8))!.lowerBound
    return String(decoding: pending[..<end], as: UTF8.self)
  }

  /// True when the server has closed the connection: a read finds its end, with nothing unread.
  func isClosedByServer() -> Bool {
    guard pending.isEmpty else { return false }
    do {
      try readMore()
      return false
    } catch {
      return (error as? Failure)?.code == 0
    }
  }

  /// GET `path` on this connection, which stays open for the next request.
  func get(_ path: String) throws -> Response {
    try send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    return try readResponse()
  }

  /// POST `json` to `path` on a connection of its own.
  static func post(port: Int, _ path: String, json: String) throws -> Response {
    let connection = try RawHTTPConnection(port: port)
    try connection.send(
      "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(json.utf8.count)\r\n\r\n\(json)")
    return try connection.readResponse()
  }

  /// GET `path` on a connection of its own.
  static func get(port: Int, _ path: String) throws -> Response {
    let connection = try RawHTTPConnection(port: port)
    try connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    return try connection.readResponse()
  }
}

/// The C library's `send`, which the method of the same name hides inside the class.
private func sendBytes(_ socket: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
  send(socket, bytes, count, flags)
}
