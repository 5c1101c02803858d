package dev.gpulint.read.evidence;

import dev.gpulint.core.Span;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A training run's log as the framework prints it, wherever its step lines sit among the program's other output
 * (docs/evidence.md, "Training logs"):
 * <ul>
 * <li>Megatron-LM: {@code [2024-05-14 10:21:33] iteration  10/ 500000 | consumed samples: ... | elapsed time per
 * iteration (ms): 8213.4 | throughput per GPU (TFLOP/s/GPU): 401.2 | ... | global batch size: 512 | ... | number of
 * skipped iterations: 0 | number of nan iterations: 0 |};</li>
 * <li>Megatron-DeepSpeed: the same line with {@code elapsed time per iteration (s)}, {@code samples per second},
 * {@code tokens per gpu per second (tgs)} and {@code TFLOPs} (per GPU);</li>
 * <li>NeMo/Lightning: {@code train_step_timing in s=2.95} in the progress bar ({@code global_step=49.0}) or
 * {@code train_step_timing in s: 2.95} in NeMo 2's log line ({@code iteration 10/99}), {@code TFLOPS_per_GPU};</li>
 * <li>torchtitan: {@code step: 10  loss:  7.12  memory: 61.32GiB(77.43%)  tps: 6,912  tflops: 400.20  mfu: 40.47%}
 * (older versions {@code wps:}), with or without colour codes;</li>
 * <li>llm-foundry/composer: a {@code [batch=10/4800]:} line, then {@code Train throughput/batches_per_sec: ...},
 * {@code Train throughput/device/tokens_per_sec}, {@code .../device/flops_per_sec}, {@code .../device/mfu},
 * {@code Train memory/peak_allocated_mem} (composer's GB, 10^9 bytes); composer's {@code time/batch} is the batch
 * count, not its duration: the step time is 1 / {@code throughput/batches_per_sec};</li>
 * <li>DeepSpeed: {@code epoch=0/micro_step=10/global_step=10, RunningAvgSamplesPerSec=45.6, CurrSamplesPerSec=46.2,
 * MemAllocated=12.3GB, MaxMemAllocated=20.1GB} (or {@code samples/sec=46.2}); the step time is the global batch
 * ({@code train_batch_size} of the configuration DeepSpeed prints) over the samples per second, and unknown without
 * it; {@code step=10, skipped=2} gives the skipped steps so far.</li>
 * </ul>
 * One framework is read per log: Megatron's lines before torchtitan's, NeMo's, composer's and DeepSpeed's (a
 * Megatron-DeepSpeed or Lightning-on-DeepSpeed log prints DeepSpeed's timer lines too). Every step is kept, the slow
 * warm-up ones as well; a progress bar's redraw of the step it already showed is one step. A log of several ranks
 * ({@code [rank3]:} or {@code [default3]:} before each line) is read for the first rank that prints a step.
 */
final class TrainingLogReader {
    /** Steps read from one log; a log within the file size gpulint reads (8 MiB) holds far fewer lines. */
    static final int MAX_STEPS = 200_000;

    enum Framework {
        MEGATRON("megatron"), MEGATRON_DEEPSPEED("megatron-deepspeed"), TORCHTITAN("torchtitan"), NEMO("nemo"),
        COMPOSER("composer"), DEEPSPEED("deepspeed");

        final String name;

        Framework(String name) { this.name = name; }
    }

    private static final Pattern RANK = Pattern.compile("^\\s*\\[(?:rank|default)(\\d{1,6})\\]:");
    private static final Pattern ITERATION = Pattern.compile("\\biteration\\s+(\\d{1,12})\\s*/\\s*\\d{1,12}");
    private static final Pattern ELAPSED = Pattern.compile("elapsed time per iteration \\((ms|s)\\):\\s*([0-9.eE+-]{1,24})");
    private static final Pattern TITAN = Pattern.compile("\\bstep:\\s*(\\d{1,12})\\s+loss:");
    private static final Pattern TITAN_MEMORY = Pattern.compile("\\bmemory:\\s*([0-9.]{1,12})\\s*GiB");
    private static final Pattern TITAN_TPS = Pattern.compile("\\b[tw]ps:\\s*([0-9][0-9,]{0,16}(?:\\.[0-9]{1,6})?)");
    private static final Pattern TITAN_TFLOPS = Pattern.compile("\\btflops:\\s*([0-9.,]{1,16})");
    private static final Pattern TITAN_MFU = Pattern.compile("\\bmfu:\\s*([0-9.]{1,12})\\s*%");
    private static final Pattern NEMO_TIMING = Pattern.compile("train_step_timing in s\\s*[=:]\\s*([0-9.eE+-]{1,24})");
    private static final Pattern NEMO_STEP = Pattern.compile("\\bglobal_step\\s*[=:]\\s*(\\d{1,12})(?:\\.\\d+)?");
    private static final Pattern BAR_STEP = Pattern.compile("\\|\\s*(\\d{1,12})/\\d{1,12}\\s*\\[");
    private static final Pattern NEMO_BATCH = Pattern.compile("\\bglobal_batch_size\\s*[=:]\\s*(\\d{1,12})(?:\\.0+)?\\b");
    private static final Pattern NEMO_TFLOPS = Pattern.compile("\\bTFLOPS_per_GPU\\s*[=:]\\s*([0-9.eE+-]{1,24})");
    private static final Pattern COMPOSER_BATCH = Pattern.compile("^\\s*\\[batch=(\\d{1,12})/\\d{1,12}\\]:?\\s*$");
    private static final Pattern COMPOSER_KEY = Pattern.compile("^\\s*Train ([A-Za-z0-9_/]{1,80}):\\s*([0-9.eE+-]{1,24})\\s*$");
    private static final Pattern DS_STEP = Pattern.compile("\\bglobal_step=(\\d{1,12})");
    private static final Pattern DS_RATE = Pattern.compile("\\b(?:CurrSamplesPerSec|samples/sec)\\s*=\\s*([0-9.eE+-]{1,24})");
    private static final Pattern DS_MEMORY = Pattern.compile("\\bMaxMemAllocated\\s*=\\s*([0-9.]{1,12})\\s*GB");
    private static final Pattern DS_SKIPPED = Pattern.compile("\\bstep=\\d{1,12},\\s*skipped=(\\d{1,12})");
    private static final Pattern DS_BATCH = Pattern.compile("\"?train_batch_size\"?\\s*(?:\\.{2,}|:)\\s*(\\d{1,12})");

    private TrainingLogReader() {}

    /** The framework whose step line this is, or null; cheap on lines that are none. */
    static Framework stepLine(String l) {
        if (l.contains("elapsed time per iteration")) {
            if (!ELAPSED.matcher(l).find()) return null;
            return l.contains("(s):") || l.contains("TFLOPs:") || l.contains("tokens per gpu per second")
                    || l.contains("samples per second") ? Framework.MEGATRON_DEEPSPEED : Framework.MEGATRON;
        }
        if (l.contains("step:") && l.contains("loss:") && TITAN.matcher(l).find()) return Framework.TORCHTITAN;
        if (l.contains("train_step_timing") && NEMO_TIMING.matcher(l).find()) return Framework.NEMO;
        if (l.contains("[batch=") && COMPOSER_BATCH.matcher(l).find()) return Framework.COMPOSER;
        if ((l.contains("SamplesPerSec") || l.contains("samples/sec")) && DS_RATE.matcher(l).find()) return Framework.DEEPSPEED;
        return null;
    }

    /** Some line of the text is a training step line; linear in the text's length. */
    static boolean present(String text) {
        int from = 0, n = text.length();
        while (from < n) {
            int end = text.indexOf('\n', from);
            if (end < 0) end = n;
            // a progress bar redraws with carriage returns: each redraw is a line of its own
            int cr = text.indexOf('\r', from);
            if (cr >= 0 && cr < end) end = cr;
            String line = Text.blankEscapes(text.substring(from, Math.min(end, from + Text.MAX_LINE)));
            if (stepLine(line) != null) return true;
            from = end + 1;
        }
        return false;
    }

    /** The log's steps, or null when no line is a step line. */
    static Evidence.TrainingLog read(String file, List<String> lines) {
        return read(file, lines, MAX_STEPS);
    }

    /** The same, with at most {@code maxSteps} steps (a test's small bound). */
    static Evidence.TrainingLog read(String file, List<String> lines, int maxSteps) {
        Map<Framework, Integer> first = new EnumMap<>(Framework.class);
        int rank = -1;
        for (int i = 0; i < lines.size(); i++) {
            Framework f = stepLine(lines.get(i));
            if (f == null) continue;
            first.putIfAbsent(f, i);
            if (rank < 0) rank = rankOf(lines.get(i));
        }
        if (first.isEmpty()) return null;
        boolean ds = first.containsKey(Framework.MEGATRON_DEEPSPEED);
        Framework f = first.keySet().iterator().next();   // EnumMap: the first in the order of preference
        if (f == Framework.MEGATRON && ds) f = Framework.MEGATRON_DEEPSPEED;
        int at = Math.min(first.getOrDefault(Framework.MEGATRON, Integer.MAX_VALUE), first.getOrDefault(Framework.MEGATRON_DEEPSPEED, Integer.MAX_VALUE));
        if (f != Framework.MEGATRON_DEEPSPEED) at = first.get(f);
        Steps s = new Steps(file, rank, maxSteps);
        switch (f) {
            case MEGATRON, MEGATRON_DEEPSPEED -> s.megatron(lines);
            case TORCHTITAN -> s.torchtitan(lines);
            case NEMO -> s.nemo(lines);
            case COMPOSER -> s.composer(lines);
            case DEEPSPEED -> s.deepspeed(lines);
        }
        return new Evidence.TrainingLog(file, f.name, marker(file, at, lines.get(at), f), List.copyOf(s.steps), s.skipped, s.nan);
    }

    /** The rank a {@code [rank3]:} prefix names, or -1. */
    private static int rankOf(String l) {
        Matcher m = RANK.matcher(l);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    /** Where the framework shows itself on its first step line. */
    private static Span marker(String file, int i, String l, Framework f) {
        Matcher m = switch (f) {
            case MEGATRON, MEGATRON_DEEPSPEED -> ELAPSED.matcher(l);
            case TORCHTITAN -> TITAN.matcher(l);
            case NEMO -> NEMO_TIMING.matcher(l);
            case COMPOSER -> COMPOSER_BATCH.matcher(l);
            case DEEPSPEED -> DS_RATE.matcher(l);
        };
        if (!m.find()) return Text.lineSpan(file, i + 1, l);
        int s = f == Framework.COMPOSER ? l.indexOf("[batch=") : m.start();
        return Text.span(file, i + 1, s + 1, m.end() - s);
    }

    private static double num(String s) {
        return Text.number(s.replace(",", ""), -1);
    }

    /** The steps read so far, and the counts the log reports. */
    private static final class Steps {
        final String file;
        final int rank, max;
        final List<Evidence.TrainStep> steps = new ArrayList<>();
        long skipped, nan;

        Steps(String file, int rank, int max) {
            this.file = file;
            this.rank = rank;
            this.max = max;
        }

        /** Another rank's copy of a line is passed over. */
        boolean otherRank(String l) {
            if (rank < 0) return false;
            int r = rankOf(l);
            return r >= 0 && r != rank;
        }

        void add(int i, String l, long iteration, double seconds, double tps, double tflops, double mfu, double gib, long batch) {
            Evidence.TrainStep s = new Evidence.TrainStep(iteration, seconds, tps, tflops, mfu, gib, batch, Text.lineSpan(file, i + 1, l));
            if (!steps.isEmpty()) {
                Evidence.TrainStep p = steps.get(steps.size() - 1);
                // a progress bar redrawn for the step it already showed
                if (p.iteration() == iteration && p.stepSeconds() == seconds && p.tflopsPerGpu() == tflops && iteration >= 0) return;
            }
            if (steps.size() >= max) {
                throw new Unreadable(Text.span(file, i + 1, 1, 0), "more than " + max + " training steps (a log longer than gpulint "
                        + "reads: keep the steps around the slowdown)");
            }
            steps.add(s);
        }

        void megatron(List<String> lines) {
            for (int i = 0; i < lines.size(); i++) {
                String l = lines.get(i);
                Framework f = stepLine(l);
                if ((f != Framework.MEGATRON && f != Framework.MEGATRON_DEEPSPEED) || otherRank(l)) continue;
                long iteration = -1, batch = -1;
                double seconds = -1, tflops = -1, tps = -1;
                Matcher it = ITERATION.matcher(l);
                if (it.find()) iteration = Long.parseLong(it.group(1));
                for (String part : l.split("\\|")) {
                    int colon = part.lastIndexOf(':');
                    if (colon < 0) continue;
                    String key = part.substring(0, colon).strip().toLowerCase(Locale.ROOT), value = part.substring(colon + 1).strip();
                    switch (key) {
                        case "elapsed time per iteration (ms)" -> seconds = num(value) < 0 ? -1 : num(value) / 1000;
                        case "elapsed time per iteration (s)" -> seconds = num(value);
                        case "throughput per gpu (tflop/s/gpu)", "tflops" -> tflops = num(value);
                        case "tokens per gpu per second (tgs)" -> tps = num(value);
                        case "global batch size" -> batch = (long) num(value);
                        case "number of skipped iterations" -> skipped += Math.max(0, (long) num(value));
                        case "number of nan iterations" -> nan += Math.max(0, (long) num(value));
                        default -> { }
                    }
                }
                add(i, l, iteration, seconds, tps, tflops, -1, -1, batch);
            }
        }

        void torchtitan(List<String> lines) {
            for (int i = 0; i < lines.size(); i++) {
                String l = lines.get(i);
                if (stepLine(l) != Framework.TORCHTITAN || otherRank(l)) continue;
                Matcher st = TITAN.matcher(l);
                st.find();
                add(i, l, Long.parseLong(st.group(1)), -1, group(TITAN_TPS, l), group(TITAN_TFLOPS, l), group(TITAN_MFU, l),
                        group(TITAN_MEMORY, l), -1);
            }
        }

        void nemo(List<String> lines) {
            for (int i = 0; i < lines.size(); i++) {
                String l = lines.get(i);
                if (stepLine(l) != Framework.NEMO || otherRank(l)) continue;
                long iteration = (long) group(NEMO_STEP, l);
                if (iteration < 0) iteration = (long) group(ITERATION, l);
                if (iteration < 0) iteration = (long) group(BAR_STEP, l);
                add(i, l, iteration, group(NEMO_TIMING, l), -1, group(NEMO_TFLOPS, l), -1, -1, (long) group(NEMO_BATCH, l));
            }
        }

        void composer(List<String> lines) {
            int at = -1;
            long iteration = -1;
            Map<String, Double> values = new java.util.HashMap<>();
            for (int i = 0; i <= lines.size(); i++) {
                String l = i < lines.size() ? lines.get(i) : "";
                Matcher b = COMPOSER_BATCH.matcher(l);
                boolean header = i < lines.size() && b.find();
                if (header || i == lines.size()) {
                    if (at >= 0) composerStep(at, lines.get(at), iteration, values);
                    values.clear();
                    at = header && !otherRank(l) ? i : -1;
                    iteration = header ? Long.parseLong(b.group(1)) : -1;
                    continue;
                }
                Matcher k = at < 0 ? null : COMPOSER_KEY.matcher(l);
                if (k != null && k.find()) values.put(k.group(1), num(k.group(2)));
            }
        }

        private void composerStep(int i, String l, long iteration, Map<String, Double> v) {
            Double batches = v.get("throughput/batches_per_sec"), flops = v.get("throughput/device/flops_per_sec"),
                    mfu = v.get("throughput/device/mfu"), peak = v.get("memory/peak_allocated_mem");
            add(i, l, iteration, batches == null || batches <= 0 ? -1 : 1 / batches,
                    v.getOrDefault("throughput/device/tokens_per_sec", -1.0), flops == null || flops < 0 ? -1 : flops / 1e12,
                    mfu == null || mfu < 0 ? -1 : mfu * 100, peak == null || peak < 0 ? -1 : peak * 1e9 / (1L << 30), -1);
        }

        void deepspeed(List<String> lines) {
            long batch = -1;
            for (int i = 0; i < lines.size(); i++) {
                String l = lines.get(i);
                if (batch < 0 && l.contains("train_batch_size")) batch = (long) group(DS_BATCH, l);
                if (l.contains("skipped=")) {
                    long s = (long) group(DS_SKIPPED, l);
                    if (s >= 0) skipped = Math.max(skipped, s);   // DeepSpeed's count is since the start
                }
                if (stepLine(l) != Framework.DEEPSPEED || otherRank(l)) continue;
                double rate = group(DS_RATE, l);
                add(i, l, (long) group(DS_STEP, l), batch > 0 && rate > 0 ? batch / rate : -1, -1, -1, -1, group(DS_MEMORY, l),
                        batch);
            }
        }

        /** The first group of the pattern's first match as a number, -1 without one. */
        private static double group(Pattern p, String l) {
            Matcher m = p.matcher(l);
            return m.find() ? num(m.group(1)) : -1;
        }
    }
}
