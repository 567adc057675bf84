import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1

/// Sits on every connection between SwiftNIO's HTTP/1.1 parser and Hummingbird, where a request
/// still has its version and its headers as they came, and does what HTTP/1.1 asks of a server
/// that Hummingbird leaves out:
///
/// - refuses an HTTP/1.1 request without `Host` or with more than one (RFC 9112 §3.2), and
///   `CONNECT` (after which the parser would read the connection as a tunnel), with a problem
///   document, then closes;
/// - answers `Expect: 100-continue` with `100 Continue`, unless the declared body is over
///   `--max-body-bytes` (the route then answers 413 without reading it), and refuses any other
///   expectation with 417;
/// - closes the connection after the answer when the request or the answer says so: HTTP/1.0
///   without `Connection: keep-alive`, or `Connection: close` on either side (the service sends
///   it while draining, so clients stop reusing connections it is about to close);
/// - **never cuts an answer when it closes**: a close asked for while bytes of an answer are still
///   waiting to be written first shuts down the sending side, which SwiftNIO does only once
///   everything before it is written, and closes when that is done, or after
///   `closeTimeout`, counting the answer as cut. When the service stops (a quiesce event) while an
///   answer is being written, the same `closeTimeout` runs from then: Hummingbird closes only after
///   writing the answer's end, which it holds back while the client reads nothing (the channel is
///   not writable), so without this the connection stayed open until the service group's backstop
///   and the cut answer went uncounted (a `.ci/run` saw exit status 0 instead of 75).
final class HTTP1ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  private let maximumBodyBytes: Int
  private let closeTimeout: TimeAmount
  private let connections: ConnectionLimiter

  /// Requests passed on whose answer has not ended yet.
  private var answersInProgress = 0
  /// Close once the answer in progress has ended.
  private var closeAfterAnswer = false
  /// The request now passed on is HTTP/1.0: its answer says whether the connection stays.
  private var answeringHTTP10 = false
  /// A refusal waiting for the answer in progress to end (a pipelined request).
  private var pendingRefusal: Problem?
  /// Set once this handler answered a request itself: nothing more is read.
  private var refused = false
  private var closing = false
  /// Closes the connection `closeTimeout` after it began to close, or after the service began to
  /// stop with an answer in progress, and counts the answer cut; cancelled when it closes.
  private var cutDeadline: Scheduled<Void>?
  /// The service began to stop (a quiesce event reached this connection).
  private var quiesced = false
  /// An answer's head is written and its end is not.
  private var answerBeingWritten = false
  /// The refused request is a CONNECT.
  private var respondingToConnect = false

  init(maximumBodyBytes: Int, closeTimeout: TimeAmount, connections: ConnectionLimiter) {
    self.maximumBodyBytes = maximumBodyBytes
    self.closeTimeout = closeTimeout
    self.connections = connections
  }

  // MARK: Requests

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !refused else { return }
    let part = unwrapInboundIn(data)
    guard case .head(var head) = part else {
      context.fireChannelRead(data)
      return
    }
    if let problem = Self.refusal(of: head) {
      respondingToConnect = head.method == .CONNECT
      refuse(problem, context: context)
      return
    }
    answeringHTTP10 = head.version == .http1_0
    if !head.isKeepAlive {
      // HTTP/1.0 without keep-alive, or `close` among other tokens: Hummingbird reads only a
      // `Connection` that is exactly `close`.
      head.headers.replaceOrAdd(name: "Connection", value: "close")
      closeAfterAnswer = true
    }
    if let expectation = head.headers.first(name: "expect") {
      guard expectation.lowercased() == "100-continue" else {
        refuse(
          Problem(
            "expectation-failed", status: .expectationFailed, title: "The expectation cannot be met",
            detail: "Expect: \(EchoedText.shortened(expectation)) is not an expectation this service meets "
              + "(it answers Expect: 100-continue)"),
          context: context)
        return
      }
      head.headers.remove(name: "expect")
      let declared = head.headers.first(name: "content-length").flatMap { Int($0) } ?? 0
      if head.version != .http1_0, declared <= maximumBodyBytes {
        context.writeAndFlush(
          wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
      }
    }
    answersInProgress += 1
    context.fireChannelRead(wrapInboundOut(.head(head)))
  }

  /// Why `head` is answered here instead of by a route, if it is.
  static func refusal(of head: HTTPRequestHead) -> Problem? {
    if head.method == .CONNECT {
      var problem = Problem(
        "method-not-allowed", status: .methodNotAllowed, title: "The route does not take this method",
        detail: "CONNECT is not served: the service is not a proxy")
      problem.headers[.allow] = "GET, HEAD, POST"
      return problem
    }
    let hosts = hostCount(head.headers)
    if head.version.major == 1, head.version.minor >= 1, hosts != 1 {
      return Problem(
        "invalid-request", status: .badRequest, title: "The request is not valid",
        detail: hosts == 0
          ? "an HTTP/1.1 request needs a Host header (RFC 9112, section 3.2)"
          : "the request has \(hosts) Host headers; HTTP/1.1 allows one (RFC 9112, section 3.2)")
    }
    return nil
  }

  /// The values of `Host` in `headers`, a list in one field counted as its items. Read without
  /// the canonical form's arrays when there is one field, not blank, without a comma, as nearly
  /// always (the arrays were a hundredth of answering a small `nearest`).
  static func hostCount(_ headers: HTTPHeaders) -> Int {
    var fields = 0
    var isPlain = true
    for (name, value) in headers where name.utf8.count == 4 && name.lowercased() == "host" {
      fields += 1
      // The canonical form splits at commas and leaves out what is only blank.
      isPlain =
        isPlain && !value.utf8.contains(UInt8(ascii: ","))
        && value.utf8.contains { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
    }
    return fields == 1 && isPlain ? 1 : headers[canonicalForm: "host"].count
  }

  /// Answers `problem` instead of passing the request on, once any answer in progress ended, and
  /// closes: what follows a refused request cannot be trusted to be where it seems.
  private func refuse(_ problem: Problem, context: ChannelHandlerContext) {
    refused = true
    guard answersInProgress == 0 else {
      pendingRefusal = problem
      return
    }
    write(problem, context: context)
  }

  private func write(_ problem: Problem, context: ChannelHandlerContext) {
    if respondingToConnect,
      let encoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
    {
      // SwiftNIO's encoder frames every answer to CONNECT without a body (a 2xx one opens a
      // tunnel); this refusal has one, so it is written past the encoder as bytes.
      encoder.writeAndFlush(
        NIOAny(Self.bytes(of: problem, allocator: context.channel.allocator)), promise: nil)
      closeGently(context: context, promise: nil)
      return
    }
    let body = context.channel.allocator.buffer(string: problem.jsonText)
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: "application/problem+json")
    headers.add(name: "Content-Length", value: String(body.readableBytes))
    headers.add(name: "Cache-Control", value: "no-store")
    headers.add(name: "Connection", value: "close")
    for field in problem.headers { headers.add(name: field.name.rawName, value: field.value) }
    context.write(
      wrapOutboundOut(
        .head(
          HTTPResponseHead(
            version: .http1_1, status: .init(statusCode: problem.status.code), headers: headers))),
      promise: nil)
    context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    closeGently(context: context, promise: nil)
  }

  /// `problem` as the bytes of an HTTP/1.1 answer that closes the connection.
  static func bytes(of problem: Problem, allocator: ByteBufferAllocator) -> ByteBuffer {
    let body = problem.jsonText
    var text = "HTTP/1.1 \(problem.status.code) \(problem.status.reasonPhrase)\r\n"
    text += "Content-Type: application/problem+json\r\nContent-Length: \(body.utf8.count)\r\n"
    text += "Cache-Control: no-store\r\nConnection: close\r\n"
    for field in problem.headers { text += "\(field.name.rawName): \(field.value)\r\n" }
    return allocator.buffer(string: text + "\r\n" + body)
  }

  // MARK: Answers

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head(var head) where head.status.code >= 200:
      if head.headers[canonicalForm: "connection"].contains(where: { $0.lowercased() == "close" }) {
        closeAfterAnswer = true
      } else if answeringHTTP10 {
        // An HTTP/1.0 client keeps the connection only when the answer says so.
        head.headers.replaceOrAdd(name: "Connection", value: closeAfterAnswer ? "close" : "keep-alive")
      }
      if closeAfterAnswer, !head.headers.contains(name: "connection") {
        head.headers.add(name: "Connection", value: "close")
      }
      context.write(wrapOutboundOut(.head(head)), promise: promise)
      answerBeingWritten = true
      if quiesced { startCutDeadline(context: context) }
    case .end:
      answerBeingWritten = false
      context.write(data, promise: promise)
      answersInProgress = max(0, answersInProgress - 1)
      if answersInProgress == 0 {
        if let problem = pendingRefusal {
          pendingRefusal = nil
          context.flush()
          write(problem, context: context)
        } else if closeAfterAnswer {
          context.flush()
          closeGently(context: context, promise: nil)
        }
      }
    default:
      context.write(data, promise: promise)
    }
  }

  // MARK: Closing

  func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
    guard mode == .all else {
      context.close(mode: mode, promise: promise)
      return
    }
    closeGently(context: context, promise: promise)
  }

  /// Shuts down the sending side once every byte before it is written, then closes; after
  /// `closeTimeout` closes anyway, and counts the answer cut.
  private func closeGently(context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
    guard !closing else {
      // A second close (Hummingbird's, after ours): the first one ends the connection.
      context.channel.closeFuture.cascade(to: promise)
      return
    }
    closing = true
    let outputClosed = context.eventLoop.makePromise(of: Void.self)
    startCutDeadline(context: context)
    outputClosed.futureResult.assumeIsolated().whenComplete { [self] _ in
      cutDeadline?.cancel()
      context.close(mode: .all, promise: nil)
    }
    context.channel.closeFuture.cascade(to: promise)
    context.close(mode: .output, promise: outputClosed)
  }

  /// Starts the `closeTimeout` after which the answer in progress is cut, unless it runs already
  /// or the connection is closed.
  private func startCutDeadline(context: ChannelHandlerContext) {
    guard cutDeadline == nil, context.channel.isActive else { return }
    let connections = connections
    cutDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: closeTimeout) {
      connections.recordCutAnswer()
      context.close(mode: .all, promise: nil)
    }
  }

  // MARK: Stopping

  /// An answer being written when the service begins to stop, or whose writing begins after,
  /// has `closeTimeout` to be written (an answer still being made has its own deadline first).
  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if event is ChannelShouldQuiesceEvent {
      quiesced = true
      if answerBeingWritten { startCutDeadline(context: context) }
    }
    context.fireUserInboundEventTriggered(event)
  }

  func channelInactive(context: ChannelHandlerContext) {
    cutDeadline?.cancel()
    cutDeadline = nil
    context.fireChannelInactive()
  }
}
