package dev.gpulint.read;

import dev.gpulint.report.Finding;
import dev.gpulint.tree.Document;
import java.util.List;

/**
 * What a front end made of one file: its manifest documents, and the
 * findings met while reading (SYN001). {@code manifest} is false for a file
 * that is well-formed but not a gpulint manifest (skipped quietly).
 */
public record ReadResult(SourceFile file, List<Document> documents, List<Finding> problems, boolean manifest) {
    public ReadResult {
        documents = List.copyOf(documents);
        problems = List.copyOf(problems);
    }

    public boolean failed() { return !problems.isEmpty(); }
}
