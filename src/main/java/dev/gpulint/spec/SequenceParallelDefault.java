package dev.gpulint.spec;

/**
 * What a job of one format runs at tp above 1 when its files do not write sequence parallelism: the format's own default,
 * where the framework declares it ({@link Format#sequenceParallelDefault}). With tp = 1 there is nothing to shard and the
 * default is moot. The plan's layout ({@code derive.estimate.JobInputs}) and PAR011's job fact ({@code derive.par.JobAnalysis})
 * both read it from here.
 *
 * @param on     sequence parallelism runs with tp above 1
 * @param known  the framework fixes the value when the files do not write it; false when it comes from a file gpulint does
 *               not read (a recipe an override file is merged on, a base configuration named by {@code defaults:}), or the
 *               format's default was not read: {@code on} is then gpulint's own default (on, as NeMo's and Megatron-Bridge's
 *               recipes set it with tp above 1)
 * @param key    the format's word for the setting ({@code --sequence-parallel}, {@code model.sequence_parallel}), or null
 *               when the format has none
 * @param source where the default is declared (the file and the name or value there), or why it is not known
 */
public record SequenceParallelDefault(boolean on, boolean known, String key, String source) {

    /** The format's default is off: the framework declares it off, or has no such setting. */
    public boolean knownOff() { return known && !on; }

    /**
     * The assumption's words when the files do not write the setting and tp is above 1: the value taken, the key and where
     * the value comes from.
     */
    public String assumption() {
        String what = (key == null ? "sequence parallelism" : key + " not given") + ": " + (on ? "on" : "off");
        String why = known ? source : source + "; gpulint's default, on with tp > 1";
        return what + " (" + why + ")" + (on ? "" : "; the tp group holds the layer norms' and dropouts' activations whole");
    }
}
