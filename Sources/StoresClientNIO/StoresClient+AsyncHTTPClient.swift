import AsyncHTTPClient
import Foundation
import OpenAPIAsyncHTTPClient
import StoresClient

extension StoresClient {
  /// A client over AsyncHTTPClient (SwiftNIO), as a server calls the service: pass `HTTPClient.shared`
  /// or one of yours (which you shut down); each request times out after a minute.
  ///
  /// In a product of its own (`StoresClientNIO`), so that an app over URLSession, which links
  /// `StoresClient` alone, builds neither SwiftNIO nor BoringSSL.
  public init(serverURL: URL, httpClient: HTTPClient) {
    self.init(
      serverURL: serverURL, transport: AsyncHTTPClientTransport(configuration: .init(client: httpClient)))
  }
}
