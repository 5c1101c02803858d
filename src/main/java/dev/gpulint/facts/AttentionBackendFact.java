package dev.gpulint.facts;

import dev.gpulint.core.Span;
import dev.gpulint.core.TextEdit;
import java.util.ArrayList;
import java.util.List;

/**
 * A job that names Megatron-Core's attention backend ({@code --attention-backend}, NeMo 2's and Megatron-Bridge's
 * {@code attention_backend}) and sets Transformer Engine's NVTE_FLASH_ATTN, NVTE_FUSED_ATTN or NVTE_UNFUSED_ATTN to a value
 * that backend does not take (PAR018). Megatron-Core's LanguageModule, which GPTModel and MambaModel extend, checks the three
 * variables in that order when it is built (megatron/core/models/common/language_module/language_module.py,
 * {@code _set_attention_backend}): each must be unset or the backend's value (auto 1/1/1, flash 1/0/0, fused 0/1/0, unfused
 * 0/0/1, local 0/0/0), else it asserts "NAME set to VALUE, but expected N for attention backend type B". One fact per launch
 * whose variables disagree, at the first variable Megatron-Core checks; values gpulint cannot read (empty, a shell
 * expansion, a YAML value Kubernetes refuses) are not judged and are named.
 */
public final class AttentionBackendFact {

    /** One of the three variables, its value as written, the value the backend expects, and where the value is written. */
    public record Setting(String name, String value, int expected, Span span) {}

    private final String jobName, file, key, backend, intended;
    private final Span backendSpan;
    private final List<Setting> disagreeing;
    private final List<TextEdit> removals;
    private final List<String> unknown;
    private final int launch;
    private final boolean again;
    private final Span call;

    /**
     * @param key         the backend's key as the job's file writes it ("--attention-backend", "model.config.attention_backend")
     * @param backend     the backend as written, lower case (auto, flash, fused, unfused, local)
     * @param disagreeing the variables whose value the backend does not take, in the order Megatron-Core checks them (at least one)
     * @param intended    the backend the job's variables leave Transformer Engine ({@link #intendedBackend}) where one of
     *                    them turns off a kernel the backend keeps on, for the fix; null otherwise (the named backend stands)
     * @param removals    the edits that each remove the one disagreeing variable's line (derive.nccl.EnvLines); empty when
     *                    more than one disagrees, or when an earlier launch's finding already offers it
     * @param unknown     the variables the launch gets with a value gpulint cannot read (not judged), in Megatron-Core's order
     * @param launch      which launch of the job's script this is (1: the first that names the backend)
     * @param again       the first disagreeing setting is an earlier launch's finding's too: this one stands at its backend
     * @param call        where a caller runs the launch's script again (srun bash train.sh a second time), null for its first run
     */
    public AttentionBackendFact(String jobName, String file, String key, String backend, Span backendSpan, List<Setting> disagreeing,
                                String intended, List<TextEdit> removals, List<String> unknown, int launch, boolean again, Span call) {
        if (disagreeing.isEmpty()) throw new IllegalArgumentException("no variable disagrees");
        this.jobName = jobName; this.file = file; this.key = key; this.backend = backend; this.backendSpan = backendSpan;
        this.disagreeing = List.copyOf(disagreeing); this.intended = intended; this.removals = List.copyOf(removals);
        this.unknown = List.copyOf(unknown); this.launch = launch; this.again = again; this.call = call;
    }

    /**
     * Whether Transformer Engine leaves the kernel of a variable set to {@code value} on: its get_attention_backend reads
     * each as {@code int(os.getenv("NVTE_FLASH_ATTN", "1"))} and turns the kernel off at 0
     * (transformer_engine/pytorch/attention/dot_product_attention/utils.py, NVIDIA/TransformerEngine), so "00" and "+0" are
     * off and "01" on; a value {@code int()} refuses ("True") counts as on (Megatron-Core's assert stops the job first).
     */
    public static boolean on(String value) {
        String t = value.strip();
        if (!t.matches("[-+]?[0-9](?:_?[0-9])*") || t.length() > 64) return true;
        return !t.replaceAll("[-+_]", "").matches("0+");
    }

    /** The variables Megatron-Core checks, in its order. */
    public static final List<String> VARIABLES = List.of("NVTE_FLASH_ATTN", "NVTE_FUSED_ATTN", "NVTE_UNFUSED_ATTN");

    /**
     * The value {@code backend} has Megatron-Core expect of {@code variable} (1 or 0), or -1 for a name that is neither: its
     * {@code _set_attention_backend} sets flash 1/0/0, fused 0/1/0, unfused 0/0/1, local 0/0/0 and auto 1/1/1 (NVTE_FLASH_ATTN,
     * NVTE_FUSED_ATTN, NVTE_UNFUSED_ATTN).
     */
    public static int expected(String backend, String variable) {
        int i = VARIABLES.indexOf(variable);
        if (i < 0 || backend == null) return -1;
        return switch (backend) {
            case "auto" -> 1;
            case "local" -> 0;
            case "flash" -> i == 0 ? 1 : 0;
            case "fused" -> i == 1 ? 1 : 0;
            case "unfused" -> i == 2 ? 1 : 0;
            default -> -1;
        };
    }

    /**
     * The backend that names what the variables leave Transformer Engine (each is on unless "0", as its
     * get_attention_backend reads them): auto while the flash-attn package and cuDNN's fused attention are both left on (its
     * own choice between them, as with none set); fused with only cuDNN's on; flash with only the flash-attn package on (the
     * DGX Cloud Grok-1 recipe's NVTE_FUSED_ATTN=0: Transformer Engine prefers it to plain ops); unfused with both off and
     * plain ops on; null with all three off (no Transformer Engine backend is left).
     */
    public static String intendedBackend(boolean flashOn, boolean fusedOn, boolean unfusedOn) {
        if (flashOn && fusedOn) return "auto";
        if (fusedOn) return "fused";
        if (flashOn) return "flash";
        return unfusedOn ? "unfused" : null;
    }

    /** The job's name. */
    public String getJobName() { return jobName; }
    /** The file the job is declared in. */
    public String getFile() { return file; }
    /** The backend's key as the job's file writes it: "--attention-backend", "model.config.attention_backend". */
    public String getKey() { return key; }
    /** The backend as written, lower case: auto, flash, fused, unfused or local. */
    public String getBackend() { return backend; }
    /** Where the backend is written. */
    public Span getBackendSpan() { return backendSpan; }
    /** The backend as the file writes it: "--attention-backend auto", "model.config.attention_backend: auto". */
    public String getBackendSetting() { return setting(backend); }
    /** The variables whose value the backend does not take, in the order Megatron-Core checks them. */
    public List<Setting> getDisagreeing() { return disagreeing; }
    /** How many of the three variables disagree. */
    public int getDisagreeingCount() { return disagreeing.size(); }
    /** The first variable Megatron-Core checks that disagrees: the one its assert names. */
    public String getName() { return disagreeing.get(0).name(); }
    /** Its value as written. */
    public String getValue() { return disagreeing.get(0).value(); }
    /** The value the backend expects of it (1 or 0). */
    public int getExpected() { return disagreeing.get(0).expected(); }
    /** Where its value is written. */
    public Span getSpan() { return disagreeing.get(0).span(); }
    /** The disagreeing variables as set: "NVTE_FUSED_ATTN=0", "NVTE_FLASH_ATTN=0 and NVTE_FUSED_ATTN=0". */
    public String getSettingsWords() {
        List<String> s = new ArrayList<>();
        for (Setting d : disagreeing) s.add(d.name() + "=" + d.value());
        return words(s);
    }
    /** The disagreeing variables' names: "NVTE_FUSED_ATTN", "NVTE_FLASH_ATTN and NVTE_FUSED_ATTN". */
    public String getNamesWords() {
        List<String> s = new ArrayList<>();
        for (Setting d : disagreeing) s.add(d.name());
        return words(s);
    }
    /**
     * The assert Megatron-Core stops the job with, as it reads up to its advice: "NVTE_FUSED_ATTN set to 0, but expected 1 for
     * attention backend type auto" (under local it names the type flash, as its code passes AttnBackend.flash there).
     */
    public String getAssertText() {
        return getName() + " set to " + getValue() + ", but expected " + getExpected() + " for attention backend type "
                + ("local".equals(backend) ? "flash" : backend);
    }
    /**
     * The backend the variables leave Transformer Engine ({@link #intendedBackend}) where one of them turns off ("0") a kernel
     * the named backend keeps on; null where none does (a "1" the backend does not take asks for nothing) or none is left.
     */
    public String getIntended() { return intended; }
    /** The variables ask for no other backend than the one the job names: dropping them is the whole fix. */
    public boolean isSameIntent() { return intended == null || intended.equals(backend); }
    /** The backend the variables ask for, as the file writes it: "--attention-backend flash", "model.config.attention_backend: flash". */
    public String getIntendedSetting() { return intended == null ? "" : setting(intended); }
    /** The edits that each remove the disagreeing variable's line (one of them at most applies); empty when more than one disagrees. */
    public List<TextEdit> getRemovals() { return removals; }

    private String setting(String value) { return key.startsWith("--") ? key + " " + value : key + ": " + value; }

    private static String words(List<String> s) {
        if (s.size() <= 1) return String.join("", s);
        return String.join(", ", s.subList(0, s.size() - 1)) + " and " + s.get(s.size() - 1);
    }

    /** The first disagreeing setting is an earlier launch's finding's too: this launch's finding stands at its backend. */
    public boolean isAgain() { return again; }
    /**
     * Where a finding that repeats an earlier launch's setting stands: the caller's command that runs the script again
     * (srun bash train.sh a second time: the backend is the earlier run's too), else this launch's backend.
     */
    public Span getAgainSpan() { return call != null ? call : backendSpan; }
    /** Whether some of the three variables have a value gpulint cannot read. */
    public boolean isAnyUnknown() { return !unknown.isEmpty(); }
    /** Those variables' names: "NVTE_FLASH_ATTN", "NVTE_FLASH_ATTN and NVTE_UNFUSED_ATTN". */
    public String getUnknownWords() { return words(unknown); }
    /** Whether one of them comes before the first disagreeing one in Megatron-Core's order: its assert names that one should it disagree too. */
    public boolean isUnknownFirst() {
        return !unknown.isEmpty() && VARIABLES.indexOf(unknown.get(0)) < VARIABLES.indexOf(getName());
    }
    /** How many of them. */
    public int getUnknownCount() { return unknown.size(); }
    /** Which launch of the job's script this is (1: the first that names the backend). */
    public int getLaunch() { return launch; }

    /** The fingerprint identity of the job's attention backend (a later launch of the same script: with its ordinal). */
    public String identity() { return "training_job:" + jobName + "/attention_backend" + (launch > 1 ? "#" + launch : ""); }

    @Override public String toString() {
        return "AttentionBackendFact[" + jobName + " " + backend + " " + getSettingsWords() + " intended=" + intended + "]";
    }
}
