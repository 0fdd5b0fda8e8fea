import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import WebPolicyRuntime
@testable import WebPolicyWebKit
import TestSupport

@Suite("Scheme handlers")
struct SchemeHandlingTests {
    @Test func customSchemesAreRegisteredAndWebSchemesRefused() throws {
        let plan = SchemeHandlerPlan(try Fixtures.policy("offline-packages").manifest)
        #expect(plan.registrations.map(\.scheme) == ["zl-offline"])
        #expect(plan.registrations.first?.rules.first?.serve == "bundle/offline-packages")
        #expect(plan.refused.map(\.scheme) == ["https"])
        var manifest = Manifest(policyName: "x", targetIOS: "16.0", distribution: "app-store")
        manifest.interception = [Manifest.Interception(scheme: "file"), Manifest.Interception(scheme: "app-assets"), Manifest.Interception(id: "second", scheme: "app-assets")]
        let builtin = SchemeHandlerPlan(manifest)
        #expect(builtin.refused.map(\.scheme) == ["file"])
        #expect(builtin.registrations.map { $0.rules.count } == [2], "one handler per scheme")
    }

    @Test func aStoppedTaskIsNeverToldAnything() {
        let stopped = StoppedTasks()
        let live = FakeSchemeTask(), gone = FakeSchemeTask()
        let response = HTTPURLResponse(url: URL(string: "app-assets://x/a.js")!, statusCode: 200, httpVersion: nil, headerFields: nil)!
        stopped.markStopped(gone)
        gone.stoppedByWebKit = true
        #expect(stopped.deliver(.success((response, Data("ok".utf8))), to: live))
        #expect(!stopped.deliver(.success((response, Data("ok".utf8))), to: gone))
        #expect(!stopped.deliver(.failure(URLError(.cancelled)), to: gone))
        #expect(live.calls == ["response 200", "data 2", "finish"])
        #expect(gone.calls.isEmpty && gone.callsAfterStop == 0)
        // A wrapper is checked under the task it wraps.
        let wrapper = FakeSchemeTask()
        #expect(!stopped.deliver(.failure(URLError(.cancelled)), to: wrapper, identifiedBy: gone))
        stopped.forget(gone)
        #expect(!stopped.isStopped(gone))
    }

    @Test func anOfflinePackageServesItsFilesAndNothingOutside() throws {
        let folder = TemporaryFolder.location("webpolicy-package")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("site/docs"), withIntermediateDirectories: true)
        try Data("<h1>home</h1>".utf8).write(to: folder.appendingPathComponent("site/index.html"))
        try Data("body{}".utf8).write(to: folder.appendingPathComponent("site/docs/a.css"))
        try Data("secret".utf8).write(to: folder.appendingPathComponent("secret.txt"))
        let package = OfflinePackage(folder: folder.appendingPathComponent("site"))
        let (home, homeData) = package.response(for: URL(string: "zl-offline://app/")!)
        #expect((home as? HTTPURLResponse)?.statusCode == 200)
        #expect((home as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "text/html")
        #expect(String(decoding: homeData, as: UTF8.self) == "<h1>home</h1>")
        #expect((package.response(for: URL(string: "zl-offline://app/docs/a.css")!).0 as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "text/css")
        #expect(package.file(for: URL(string: "zl-offline://app/docs")!) == .failure(.notFound("/docs/index.html")), "a folder is its index.html")
        #expect(package.file(for: URL(string: "zl-offline://app/../secret.txt")!) != .success(folder.appendingPathComponent("secret.txt").standardizedFileURL))
        #expect(package.file(for: URL(string: "zl-offline://app/%2E%2E/secret.txt")!) != .success(folder.appendingPathComponent("secret.txt").standardizedFileURL))
        #expect((package.response(for: URL(string: "zl-offline://app/missing.png")!).0 as? HTTPURLResponse)?.statusCode == 404)
    }
}
