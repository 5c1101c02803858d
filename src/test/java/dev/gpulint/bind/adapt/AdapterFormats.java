package dev.gpulint.bind.adapt;

import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;

/** The adapter tests' question of which adapter takes a file: its display name, or "none". */
final class AdapterFormats {

    private AdapterFormats() {}

    /** The display name of the adapter that recognises the first foreign document of {@code text} read as {@code name}. */
    static String format(String name, String text) {
        SourceFile f = SourceFile.of(name, text);
        return FormatAdapters.find(new ForeignDocument(Readers.read(f).foreign().get(0), f, name)).map(FormatAdapter::displayName).orElse("none");
    }
}
