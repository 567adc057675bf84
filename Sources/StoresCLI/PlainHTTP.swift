#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One HTTP/1.1 exchange over a plain TCP connection, for `stores state --server`: an operator's
/// few requests to a replica on the internal network or loopback.
///
/// Written here rather than taken from AsyncHTTPClient, which would build SwiftNIO's TLS stack
/// (BoringSSL) into every `stores`; `http://` only, `Connection: close`, the answer read to the end.
enum PlainHTTP {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Sends `method path` with `body` to `server` (`http://host:port`), waiting at most
  /// `timeoutSeconds` for each read and write.
  /// - Returns: The status code and the body.
  static func send(
    _ method: String, _ path: String, to server: String, headers: [(String, String)] = [], body: [UInt8] = [],
    timeoutSeconds: Int = 10
  ) throws(Failure) -> (status: Int, body: String) {
    guard server.hasPrefix("http://") else {
      throw Failure(
        description: "--server \(server): give an http:// URL of a replica (such as http://127.0.0.1:8080); "
          + "https is not spoken here: reach the replica on the internal network")
    }
    var rest = server.dropFirst("http://".count)
    if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
    let hostPort = rest.split(separator: ":", maxSplits: 1)
    let host = hostPort.first.map(String.init) ?? ""
    let port = hostPort.count > 1 ? String(hostPort[1]) : "80"
    guard !host.isEmpty, let portNumber = Int(port), (1...65535).contains(portNumber) else {
      throw Failure(description: "--server \(server) is not http://HOST:PORT")
    }

    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if canImport(Glibc)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    var found: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, port, &hints, &found) == 0, let first = found else {
      throw Failure(description: "--server \(server): cannot resolve \(host)")
    }
    defer { freeaddrinfo(found) }
    let socket = makeSocket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
    guard socket >= 0 else { throw Failure(description: "cannot open a socket: errno \(errno)") }
    defer { close(socket) }
    var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    guard connect(socket, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
      throw Failure(description: "--server \(server): cannot connect (\(String(cString: strerror(errno))))")
    }
    var request = "\(method) \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
    request += "Content-Length: \(body.count)\r\n"
    for (name, value) in headers { request += "\(name): \(value)\r\n" }
    request += "\r\n"
    let bytes = Array(request.utf8) + body
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
      guard count > 0 else { throw Failure(description: "--server \(server): the request could not be sent") }
      sent += count
    }
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
      if count == 0 { break }
      guard count > 0 else {
        throw Failure(description: "--server \(server): no answer within \(timeoutSeconds) s")
      }
      answer += buffer[..<count]
      guard answer.count <= 64 << 20 else {
        throw Failure(description: "--server \(server): the answer is over 64 MiB")
      }
    }
    return try parse(answer, server: server)
  }

  /// The status and body of an HTTP/1.1 answer read to its end (a chunked body is joined).
  static func parse(_ answer: [UInt8], server: String) throws(Failure) -> (status: Int, body: String) {
    let separator: [UInt8] = [13, 10, 13, 10]
    guard let end = answer.indices.first(where: { answer[$0...].starts(with: separator) }) else {
      throw Failure(description: "--server \(server): the answer is not HTTP")
    }
    let head = String(decoding: answer[..<end], as: UTF8.self)
    let lines = head.split(separator: "\r\n")
    let statusParts = lines.first?.split(separator: " ") ?? []
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
      throw Failure(description: "--server \(server): the answer has no status line")
    }
    var body = Array(answer[(end + 4)...])
    if lines.contains(where: {
      $0.lowercased().hasPrefix("transfer-encoding:") && $0.lowercased().contains("chunked")
    }) {
      var joined: [UInt8] = []
      var index = 0
      while let lineEnd = body[index...].indices.first(where: { body[$0...].starts(with: [13, 10]) }),
        let size = Int(
          String(decoding: body[index..<lineEnd], as: UTF8.self).split(separator: ";")[0], radix: 16),
        size > 0, lineEnd + 2 + size <= body.count
      {
        joined += body[(lineEnd + 2)..<(lineEnd + 2 + size)]
        index = lineEnd + 2 + size + 2
        if index >= body.count { break }
      }
      body = joined
    }
    return (status, String(decoding: body, as: UTF8.self))
  }
}

/// `socket(2)`, named apart from the local variables that hold one.
private func makeSocket(_ family: Int32, _ type: Int32, _ proto: Int32) -> Int32 {
  socket(family, type, proto)
}
