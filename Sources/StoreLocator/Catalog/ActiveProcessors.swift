#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How many processors the loader may keep busy (reading ahead, inferring time zones), and how
/// it keeps them busy.
package enum ActiveProcessors {
  /// The processors online now, at least 1.
  package static var count: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

  /// Calls `body(part)` for every part in `0..<parts` at once, part 0 on the calling thread and
  /// each other on a thread of its own, and returns when every part has.
  ///
  /// Not `DispatchQueue.concurrentPerform`: called from a task (a test, or a server that loads
  /// in a task), it borrows width from the queue of Swift's cooperative pool, and on Linux tasks
  /// enqueued meanwhile could be left waiting with no thread to run them once it gave the width
  /// back (`swift test` hung that way in CI, every task waiting and no pool thread). A load
  /// makes a few threads, each living for the tenths of a second its part takes.
  package static func run(parts: Int, _ body: @Sendable (Int) -> Void) {
    guard parts > 1 else {
      if parts == 1 { body(0) }
      return
    }
    withoutActuallyEscaping(body) { body in
      let started = start(parts: 1..<parts, body)
      body(0)
      started.join()
    }
  }

  /// Parts running on threads of their own (`start(parts:_:)`), until joined.
  package struct Started: ~Copyable {
    fileprivate let threads: [pthread_t]

    /// Returns when every part has.
    package consuming func join() {
      for thread in threads { pthread_join(thread, nil) }
    }
  }

  /// Starts `body(part)` for every part in `parts`, each on a thread of its own, and returns at
  /// once; `join()` waits for them. A part that gets no thread (a process at its limit) runs here,
  /// before this returns.
  package static func start(parts: Range<Int>, _ body: @escaping @Sendable (Int) -> Void) -> Started {
    var threads: [pthread_t] = []
    for number in parts {
      let part = Unmanaged.passRetained(Part(number: number, body: body)).toOpaque()
      if let thread = start(part) {
        threads.append(thread)
      } else {
        Unmanaged<Part>.fromOpaque(part).release()
        body(number)
      }
    }
    return Started(threads: threads)
  }

  /// How many parts a pass over `count` stores is split into: one a processor, but below a few
  /// thousand stores a thread costs more than it saves.
  package static func parts(for count: Int) -> Int { min(Self.count, max(1, count / 4096)) }

  /// How many parts work over `bytes` bytes (a copy, a checksum) is split into: one a processor,
  /// but below a few megabytes a part a thread costs more than it saves.
  package static func parts(forBytes bytes: Int) -> Int { min(Self.count, max(1, bytes / (4 << 20))) }

  /// Items of `sizes` bytes dealt out to `parts(forBytes:)` parts of nearly equal bytes, the
  /// largest first, each to the part with the fewest bytes so far: the items' indices a part.
  package static func shares(ofSizes sizes: [Int]) -> [[Int]] {
    let parts = Self.parts(forBytes: sizes.reduce(0, +))
    var shares = [[Int]](repeating: [], count: parts)
    var bytes = [Int](repeating: 0, count: parts)
    for item in sizes.indices.sorted(by: { sizes[$0] > sizes[$1] }) {
      let part = bytes.indices.min { bytes[$0] < bytes[$1] }!
      shares[part].append(item)
      bytes[part] += sizes[item]
    }
    return shares
  }

  /// The `part`th of `parts` consecutive ranges, as nearly equal as can be, that cover
  /// `0..<count`: what part `part` of a `run(parts:_:)` over `count` items takes.
  package static func range(_ part: Int, of parts: Int, in count: Int) -> Range<Int> {
    (part * count / parts)..<((part + 1) * count / parts)
  }

  /// What one thread runs.
  private final class Part {
    let number: Int
    let body: @Sendable (Int) -> Void

    init(number: Int, body: @escaping @Sendable (Int) -> Void) {
      self.number = number
      self.body = body
    }
  }

  /// Starts a thread running `part` (retained; the thread releases it), or `nil` if none starts.
  private static func start(_ part: UnsafeMutableRawPointer) -> pthread_t? {
    #if canImport(Darwin)
      var thread: pthread_t?
      let result = pthread_create(
        &thread, nil,
        { context in
          let part = Unmanaged<Part>.fromOpaque(context).takeRetainedValue()
          part.body(part.number)
          return nil
        }, part)
      return result == 0 ? thread : nil
    #else
      var thread = pthread_t()
      let result = pthread_create(
        &thread, nil,
        { context in
          let part = Unmanaged<Part>.fromOpaque(context!).takeRetainedValue()
          part.body(part.number)
          return nil
        }, part)
      return result == 0 ? thread : nil
    #endif
  }
}

/// Slots of one buffer that several threads fill, each thread its own slots.
struct SharedSlots<Element>: @unchecked Sendable {
  let slots: UnsafeMutableBufferPointer<Element>
}
