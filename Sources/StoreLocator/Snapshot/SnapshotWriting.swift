import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writing a snapshot file so that no reader, and no power loss, ever finds half of one.
extension SnapshotFiles {
  /// What comes between the output's name and the process id in a temporary file's name.
  static let partialMarker = ".partial-"

  /// `OUT.partial-PID`: where process `processID` writes the snapshot for `output`.
  static func temporaryPath(for output: String, processID: Int32 = getpid()) -> String {
    output + partialMarker + String(processID)
  }

  /// One snapshot write at a time in this process: two writes of the same output would share
  /// the temporary file's name.
  private static let writing = Mutex(())

  /// Writes `bytes` to `path` through `OUT.partial-PID`: created (never through a symbolic link)
  /// and locked, written, fsynced, renamed over `path`, and the directory fsynced.
  ///
  /// - Throws: `CatalogError`: `.inputMissing` when the temporary file cannot be created (no
  ///   such directory, no permission), `.writeFailed` when writing, syncing or renaming fails (a
  ///   full disk, an I/O error). Before the rename the temporary file is removed and `path` is
  ///   untouched.
  static func writeDurably(
    _ bytes: UnsafeRawBufferPointer, to path: String, progress: WorkProgress? = nil
  ) throws(CatalogError) {
    try writing.withLock { _ throws(CatalogError) in
      let temporary = temporaryPath(for: path)
      let descriptor = try createTemporary(temporary, for: path)
      var renamed = false
      defer {
        close(descriptor)
        if !renamed { unlink(temporary) }
      }
      func failure(_ code: Int32, _ step: String = "") -> CatalogError {
        CatalogError(.writeFailed, source: path, "cannot write: \(String(cString: strerror(code)))\(step)")
      }
      progress?.begin("writing \(path)", total: bytes.count, unit: .bytes)
      var written = 0
      while written < bytes.count {
        // In pieces, so that progress can be told: each still far larger than a write needs.
        let piece = min(bytes.count - written, WorkProgress.byteStep * 16)
        let result = write(descriptor, bytes.baseAddress! + written, piece)
        if result < 0 {
          if errno == EINTR { continue }
          throw failure(errno)
        }
        written += result
        progress?.advance(to: written)
      }
      progress?.begin("syncing \(path) to disk", total: 0, unit: .bytes)
      if let code = sync(descriptor) { throw failure(code, " (syncing \(temporary) to disk)") }
      guard rename(temporary, path) == 0 else { throw failure(errno, " (renaming \(temporary) to it)") }
      renamed = true
      do throws(SyncFailure) { try syncDirectory(directory(of: path)) } catch {
        throw failure(
          error.code,
          " (syncing its directory after the rename: the new snapshot is in place, but may not "
            + "survive a power loss)")
      }
    }
  }

  /// Creates the temporary file, exclusively and never through a link, and locks it until the
  /// rename, so that no other build takes it for a leftover. A file already there under this
  /// process's id is what an earlier process with this id left (writes in this process take
  /// turns), and is replaced; unless a build holds its lock: a build with the same process id in
  /// another PID namespace sharing the directory, whose file is left alone.
  ///
  /// - Returns: The open descriptor.
  private static func createTemporary(_ temporary: String, for path: String) throws(CatalogError) -> Int32 {
    var code = EEXIST
    for _ in 0..<3 {
      let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
      if descriptor >= 0 {
        _ = flock(descriptor, LOCK_EX)
        return descriptor
      }
      code = errno
      guard code == EEXIST else { break }
      if isLocked(temporary) {
        throw CatalogError(
          .inputMissing, source: path,
          "cannot write: \(temporary) is being written by another build with the same process id (in "
            + "another PID namespace); build again when it has finished")
      }
      unlink(temporary)
    }
    throw CatalogError(.inputMissing, source: path, "cannot write: \(String(cString: strerror(code)))")
  }

  /// True when someone holds a `flock` on the regular file at `path` (not following a link).
  static func isLocked(_ path: String) -> Bool {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    return flock(descriptor, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
  }

  /// Why a directory could not be synced: the `errno` of `open` or `fsync`.
  struct SyncFailure: Error, Equatable {
    let code: Int32
  }

  /// `fsync` on `descriptor`, retried when interrupted; the `errno` when it fails.
  static func sync(_ descriptor: Int32) -> Int32? {
    while fsync(descriptor) != 0 {
      if errno != EINTR { return errno }
    }
    return nil
  }

  /// Makes the directory's entries durable: opens it read-only and fsyncs it, so a rename into
  /// it survives a power loss. A file system that cannot sync a directory (`EINVAL`) has nothing
  /// more to do and is not an error.
  static func syncDirectory(_ directory: String) throws(SyncFailure) {
    let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw SyncFailure(code: errno) }
    defer { close(descriptor) }
    if let code = sync(descriptor), code != EINVAL { throw SyncFailure(code: code) }
  }
}
