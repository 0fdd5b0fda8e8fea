import Testing
import WebPolicyAudit

/// Where an app says its deployment target, each file kind read as its tool writes it.
@Suite struct DeploymentTargetTests {
    @Test func eachKindOfFileIsRead() {
        #expect(DeploymentTargetSource(path: "Configuration/App.xcconfig")?.targets(in: "IPHONEOS_DEPLOYMENT_TARGET = 16.4\n") == ["16.4"])
        #expect(DeploymentTargetSource(path: "App.xcodeproj/project.pbxproj")?.targets(in: "\t\t\t\tIPHONEOS_DEPLOYMENT_TARGET = 15.0;\n") == ["15.0"])
        let spec = """
        options:
          deploymentTarget: # the three latest major versions
            iOS: 17.6
            macOS: 14.6
        targets:
          Widget:
            platform: iOS
            deploymentTarget: "18.0"
            settings:
              IPHONEOS_DEPLOYMENT_TARGET: 17.0
        """
        #expect(DeploymentTargetSource(path: "project.yml")?.targets(in: spec).sorted() == ["17.0", "17.6", "18.0"])
        let manifest = """
        let package = Package(name: "App", platforms: [.iOS(.v16_4), .macOS(.v13)], targets: [])
        let other = Package(name: "B", platforms: [.iOS(.v17), .iOS("15.2")])
        """
        #expect(DeploymentTargetSource(path: "Package.swift")?.targets(in: manifest) == ["16.4", "17.0", "15.2"])
        #expect(DeploymentTargetSource(path: "App/Info.plist") == nil)
    }

    /// The most trusted kind wins; within it, the oldest target.
    @Test func theMostTrustedKindWinsAndWithinItTheOldest() {
        func file(_ path: String, _ targets: [String]) -> FileFacts {
            var facts = FileFacts(path: path, language: .buildSettings)
            facts.deploymentTargets = targets
            return facts
        }
        let inventory = AppInventory(files: [file("A.xcodeproj/project.pbxproj", ["15.0"]), file("project.yml", ["17.6"]), file("Package.swift", ["16.0"])])
        #expect(inventory.deploymentTarget == "17.6")
        #expect(inventory.deploymentTargetFile?.path == "project.yml")
        let configured = AppInventory(files: [file("project.yml", ["17.6"]), file("Base.xcconfig", ["16.4", "16.0"]), file("Other.xcconfig", ["16.2"])])
        #expect(configured.deploymentTarget == "16.0")
        #expect(configured.deploymentTargetFile?.source == .xcconfig)
    }
}
