package dev.gpulint.bind.adapt;

import dev.gpulint.read.SourceFile;
import dev.gpulint.tree.Document;
import dev.gpulint.tree.MappingNode;

/**
 * One document an adapter is offered: a document of a file that is not a native manifest (its tree, file and
 * index), with the two things the tree alone does not give. The file's text: a script's words, an embedded
 * counter list's rows and an Argo manifest's lines are placed by offsets into it ({@code shell.ScalarText}). The
 * job's name: it depends on how many documents the file holds, which one document does not know.
 *
 * @param source the file the document was read from
 * @param name   the job's name: the file's display path, with #n for the n-th of several documents
 */
record ForeignDocument(Document document, SourceFile source, String name) {

    MappingNode root() { return document.root(); }

    /** The file's display path, as every finding names it. */
    String file() { return source.displayPath(); }

    /** The file's whole text. */
    String text() { return source.text(); }
}
