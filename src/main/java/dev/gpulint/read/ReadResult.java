package dev.gpulint.read;

import dev.gpulint.core.Finding;
import dev.gpulint.tree.Document;
import java.util.List;

/**
 * What a front end made of one file: its manifest documents, and the
 * findings met while reading (SYN001). {@code manifest} is false for a file
 * that is well-formed but not a gpulint manifest (skipped quietly). {@code foreign} holds the
 * file's other mapping documents (NeMo, Kubernetes, SkyPilot, DeepSpeed, DCGM...), which the
 * adapters may bind. {@code evidence} holds what a captured tool output (nvidia-smi, ibstat,
 * nccl-tests, an NCCL log) reports.
 */
public record ReadResult(SourceFile file, List<Document> documents, List<Finding> problems, boolean manifest,
                         List<Document> foreign, List<dev.gpulint.read.evidence.Evidence> evidence) {
    public ReadResult {
        documents = List.copyOf(documents);
        problems = List.copyOf(problems);
        foreign = List.copyOf(foreign);
        evidence = List.copyOf(evidence);
    }

    public ReadResult(SourceFile file, List<Document> documents, List<Finding> problems, boolean manifest,
                      List<Document> foreign) {
        this(file, documents, problems, manifest, foreign, List.of());
    }

    public ReadResult(SourceFile file, List<Document> documents, List<Finding> problems, boolean manifest) {
        this(file, documents, problems, manifest, List.of());
    }

    /** A problem that makes the run exit 2: anything but a note (SYN006, a format gpulint does not read). */
    public boolean failed() { return problems.stream().anyMatch(p -> p.level() != dev.gpulint.core.Level.NOTE); }
}
