import Foundation
import TestTraits
import Testing

/// The mutants `Scripts/mutants` plants: each must still apply to the tree, or the next mutation run stops at it.
@Suite("The mutants of Scripts/mutants", .scaledTimeLimit(minutes: 1), .blocking)
struct MutantPatchTests {

    @Test("every mutant has a description and a family, and applies to this tree")
    func everyMutantApplies() throws {
        let root = BuiltExecutable.packageRoot
        let families = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Mutants").path)
        let patches = try families.flatMap { family in
            try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Mutants/\(family)").path)
                .filter { $0.hasSuffix(".patch") }.map { root.appendingPathComponent("Mutants/\(family)/\($0)") }
        }
        #expect(patches.count >= 40)
        let git = BuiltExecutable(at: URL(fileURLWithPath: "/usr/bin/git"))
        for patch in patches {
            let text = try String(contentsOf: patch, encoding: .utf8)
            #expect(text.hasPrefix("Description: ") && text.contains("\nFamily: "), "\(patch.lastPathComponent)")
            let outcome = try git.run(["-C", root.path, "apply", "--check", patch.path], limit: 20)
            #expect(outcome.status == 0, "\(patch.lastPathComponent) no longer applies: \(outcome.errors)")
        }
    }
}
