package dev.gpulint.bind.adapt;

/**
 * One format of configuration that gpulint binds, as a class: how it is recognised from a document's content (and,
 * for DeepSpeed, the file's name), and what it writes into a {@link DraftSink}. The formats are tried in the order of
 * {@link FormatAdapters#ALL}; the first that accepts a document binds it ({@link FormatAdapters#find}).
 */
interface FormatAdapter {

    /** A stable identifier: lower case and hyphens ("nemo", "dcgm-counter-list"); tests and documentation name the format by it. */
    String id();

    /**
     * The format's name as its users write it ("NeMo", "DCGM counter list"); for a format of jobs, the display name of
     * its {@link dev.gpulint.spec.Format}, which findings show.
     */
    String displayName();

    /** Whether this format is the document's: its telltale keys, kind and apiVersion. */
    boolean accepts(ForeignDocument doc);

    /** Binds one accepted document: its jobs as drafts, and whatever else its format holds. */
    void bind(ForeignDocument doc, DraftSink sink);
}
