import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1.1 connection with the service's bounds: at most `--max-connections` at
/// once, and an `HTTP1ConnectionGuard` between the parser and Hummingbird.
struct GuardedHTTP1Channel: ServerChildChannel {
  /// A connection taken, or one closed at once because too many were open.
  enum Value: ServerChildChannelValue {
    case admitted(HTTP1Channel.Value)
    case refused(any Channel)

    var channel: any Channel {
      switch self {
      case .admitted(let value): value.channel
      case .refused(let channel): channel
      }
    }
  }

  let http: HTTP1Channel
  let connections: ConnectionLimiter
  let maximumBodyBytes: Int
  let closeTimeout: TimeAmount

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    guard connections.admit() else {
      return channel.close().map { Value.refused(channel) }.recover { _ in Value.refused(channel) }
    }
    let connections = connections
    channel.closeFuture.whenComplete { _ in connections.release() }
    return http.setup(channel: channel, logger: logger).flatMapThrowing { value in
      let pipeline = channel.pipeline.syncOperations
      let codec = try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
      try pipeline.addHandler(
        HTTP1ConnectionGuard(
          maximumBodyBytes: maximumBodyBytes, closeTimeout: closeTimeout, connections: connections),
        position: .before(codec))
      return .admitted(value)
    }
  }

  func handle(value: Value, logger: Logger) async {
    guard case .admitted(let value) = value else { return }
    await http.handle(value: value, logger: logger)
  }
}

extension HTTPServerBuilder {
  /// HTTP/1.1 with the service's bounds (see `GuardedHTTP1Channel`).
  /// - Parameters:
  ///   - idleTimeout: `--idle-timeout`; `nil` for none.
  ///   - connections: Counts connections and closes those past the bound.
  ///   - maximumBodyBytes: `--max-body-bytes`: no `100 Continue` for a larger declared body.
  ///   - closeTimeout: `--shutdown-timeout`: how long a closing connection may take to write its
  ///     answer's last bytes.
  public static func guardedHTTP1(
    idleTimeout: TimeAmount?, connections: ConnectionLimiter, maximumBodyBytes: Int, closeTimeout: TimeAmount
  ) -> HTTPServerBuilder {
    .init { responder in
      GuardedHTTP1Channel(
        http: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: idleTimeout)),
        connections: connections, maximumBodyBytes: maximumBodyBytes, closeTimeout: closeTimeout)
    }
  }
}
