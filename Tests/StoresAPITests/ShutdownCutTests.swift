import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import StoresAPI

/// `--shutdown-timeout` when the service stops while an answer is being written and the client
/// reads nothing: Hummingbird holds the answer's end back (the channel is not writable) and so
/// never closes; the guard cuts the answer `closeTimeout` after the stop, and counts it. The
/// race that once let such a connection wait for the service group's backstop instead, and exit
/// 0, is taken out: here the end is never written at all.
@Suite struct ShutdownCutTests {
  /// A connection through the guard, active, with a request passed on.
  static func connection(closeTimeout: TimeAmount, connections: ConnectionLimiter) throws -> EmbeddedChannel {
    let channel = EmbeddedChannel(
      handler: HTTP1ConnectionGuard(
        maximumBodyBytes: 1_000, closeTimeout: closeTimeout, connections: connections))
    // Nothing here waits on a future: the embedded loop runs only when the test advances it.
    channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 9), promise: nil)
    var headers = HTTPHeaders()
    headers.add(name: "Host", value: "a")
    try channel.writeInbound(
      HTTPServerRequestPart.head(HTTPRequestHead(version: .http1_1, method: .GET, uri: "/", headers: headers))
    )
    try channel.writeInbound(HTTPServerRequestPart.end(nil))
    return channel
  }

  static func stoppingLimiter() -> ConnectionLimiter {
    let connections = ConnectionLimiter(maximum: 16, metrics: ServiceMetrics(), logger: Logger(label: "test"))
    connections.beginStopping()
    return connections
  }

  @Test func anAnswerWhoseEndIsHeldBackIsCutAfterTheTimeout() throws {
    let connections = Self.stoppingLimiter()
    let channel = try Self.connection(closeTimeout: .seconds(1), connections: connections)
    try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
    try channel.writeOutbound(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: "{\"stores\": ["))))
    channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
    channel.embeddedEventLoop.advanceTime(by: .milliseconds(900))
    #expect(channel.isActive, "cut before the timeout")
    #expect(connections.answersCutWhileStopping == 0)
    channel.embeddedEventLoop.advanceTime(by: .milliseconds(200))
    #expect(!channel.isActive, "still open after the timeout")
    #expect(connections.answersCutWhileStopping == 1)
  }

  /// An answer still being made when the service stops has its own deadline first: the timeout
  /// runs from when its writing begins.
  @Test func theTimeoutRunsFromTheAnswersFirstByte() throws {
    let connections = Self.stoppingLimiter()
    let channel = try Self.connection(closeTimeout: .seconds(1), connections: connections)
    channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
    channel.embeddedEventLoop.advanceTime(by: .seconds(5))
    #expect(channel.isActive)
    try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
    channel.embeddedEventLoop.advanceTime(by: .milliseconds(900))
    #expect(channel.isActive)
    channel.embeddedEventLoop.advanceTime(by: .milliseconds(200))
    #expect(!channel.isActive)
    #expect(connections.answersCutWhileStopping == 1)
  }

  /// An answer that ends in time is not cut, and nothing fires after the connection is gone.
  @Test func anAnswerThatEndsInTimeIsNotCut() throws {
    let connections = Self.stoppingLimiter()
    let channel = try Self.connection(closeTimeout: .seconds(1), connections: connections)
    try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
    channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
    channel.embeddedEventLoop.advanceTime(by: .milliseconds(500))
    try channel.writeOutbound(HTTPServerResponsePart.end(nil))
    channel.close(promise: nil)
    channel.embeddedEventLoop.run()
    channel.embeddedEventLoop.advanceTime(by: .seconds(5))
    #expect(!channel.isActive)
    #expect(connections.answersCutWhileStopping == 0)
  }
}
