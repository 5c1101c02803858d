package dev.gpulint.bind.adapt;

import dev.gpulint.read.SourceFile;
import dev.gpulint.tree.MappingNode;
import java.util.function.BiPredicate;

/**
 * One format of configuration that gpulint binds: how it is recognised from a document's content
 * (and, for DeepSpeed, the file's name), and what it binds into a {@link DraftSink}. The formats are
 * tried in the order of {@link FormatAdapters#ALL}; the first that accepts a document binds it.
 */
interface FormatAdapter {

    /** The format's name, as tests and documentation call it. */
    String format();

    /** Whether this format is the document's: its telltale keys, kind and apiVersion. */
    boolean accepts(MappingNode root, SourceFile file);

    /**
     * Binds one accepted document.
     *
     * @param name the job's name: the file's display path, with #n for the n-th of several documents
     */
    void bind(MappingNode root, SourceFile file, String name, DraftSink sink);

    /** The binding step of a format, as a function. */
    @FunctionalInterface
    interface Binding {
        void bind(MappingNode root, SourceFile file, String name, DraftSink sink);
    }

    static FormatAdapter of(String format, BiPredicate<MappingNode, SourceFile> accepts, Binding binding) {
        return new FormatAdapter() {
            @Override public String format() { return format; }
            @Override public boolean accepts(MappingNode root, SourceFile file) { return accepts.test(root, file); }
            @Override public void bind(MappingNode root, SourceFile file, String name, DraftSink sink) {
                binding.bind(root, file, name, sink);
            }
            @Override public String toString() { return format; }
        };
    }
}
