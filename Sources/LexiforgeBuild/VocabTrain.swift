import Foundation
import LexiforgeReader

/// `lexiforge train` of a model with `vocabulary`: the lists, provisioned and sha256-checked, into a vocabulary store.
public enum VocabTrain {
    /// The lists of `inputs` (resolved from the manifest) into the store at `output`.
    public static func run(_ spec: ModelSpec, inputs: ModelInputs, output: String, strict: Bool, progress: StageProgress) throws -> VocabImportReport {
        var config = VocabImportConfig(inputs: inputs.vocabularies, output: output)
        config.strict = strict
        config.modelName = spec.name
        config.expectedSHA256 = inputs.expectedSHA256
        return try VocabImport.run(config, progress: progress)
    }
}
