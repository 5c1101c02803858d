package dev.gpulint.read.evidence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.ReadResult;
import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Training logs in each framework's printed shape (fixtures written after the frameworks' log lines as pasted in issues). */
class TrainingLogReaderTest {

    /** Megatron-LM core_r0.7+: the args dump, an NCCL line, two iteration lines and the memory report between them. */
    static final String MEGATRON = String.join("\n",
            "using world size: 16, data-parallel size: 2, context-parallel size: 1, tensor-model-parallel size: 8, pipeline-model-parallel size: 1",
            "------------------------ arguments ------------------------",
            "  global_batch_size ............................... 512",
            "node1:2201:2201 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.1<0>",
            "[before the start of training step] datetime: 2024-05-14 10:20:01",
            " [2024-05-14 10:21:33] iteration       10/  500000 | consumed samples:         5120 | elapsed time per iteration (ms): 9180.2 |"
                    + " throughput per GPU (TFLOP/s/GPU): 358.9 | learning rate: 1.500000E-06 | global batch size:   512 | lm loss: 1.093450E+01 |"
                    + " loss scale: 1.0 | grad norm: 12.345 | number of skipped iterations:   0 | number of nan iterations:   0 |",
            "[Rank 0] (after 10 iterations) memory (MB) | allocated: 21334.5 | max allocated: 51287.3 | reserved: 58420.0 | max reserved: 58420.0",
            " [2024-05-14 10:22:55] iteration       20/  500000 | consumed samples:        10240 | elapsed time per iteration (ms): 8213.4 |"
                    + " throughput per GPU (TFLOP/s/GPU): 401.2 | learning rate: 3.000000E-06 | global batch size:   512 | lm loss: 9.876543E+00 |"
                    + " loss scale: 1.0 | grad norm: 5.432 | number of skipped iterations:   1 | number of nan iterations:   2 |",
            "");

    private static ReadResult read(String name, String text) { return Readers.read(SourceFile.of(name, text)); }

    private static Evidence.TrainingLog log(String name, String text) {
        ReadResult r = read(name, text);
        assertTrue(r.problems().isEmpty(), r.problems().toString());
        return (Evidence.TrainingLog) r.evidence().stream().filter(e -> e instanceof Evidence.TrainingLog).findFirst().orElseThrow();
    }

    @Test
    void megatronIterationLinesGiveStepTimeThroughputBatchAndTheSkippedAndNanCounts() {
        ReadResult r = read("run.log", MEGATRON);
        assertEquals(List.of(Evidence.Kind.TRAINING_LOG, Evidence.Kind.NCCL_LOG), r.evidence().stream().map(Evidence::kind).toList(),
                "the NCCL line of the same log is still read as the NCCL log");
        Evidence.TrainingLog t = log("run.log", MEGATRON);
        assertEquals("megatron", t.framework());
        assertEquals(6, t.frameworkSpan().startLine());
        assertEquals(87, t.frameworkSpan().startColumn());
        assertEquals(2, t.steps().size());
        Evidence.TrainStep s = t.steps().get(0);
        assertEquals(10, s.iteration());
        assertEquals(9.1802, s.stepSeconds(), 1e-9);
        assertEquals(358.9, s.tflopsPerGpu(), 1e-9);
        assertEquals(512, s.globalBatch());
        assertEquals(-1, s.tokensPerSecondPerGpu());
        assertEquals(-1, s.mfuPercent());
        assertEquals(6, s.span().startLine());
        assertEquals(2, s.span().startColumn());
        assertEquals(20, t.steps().get(1).iteration());
        assertEquals(8.2134, t.steps().get(1).stepSeconds(), 1e-9);
        assertEquals(8, t.steps().get(1).span().startLine());
        assertEquals(1, t.skipped());
        assertEquals(2, t.nan());
    }

    @Test
    void megatronDeepSpeedLinesInSecondsWithTgsAndTflopsAndItsDeepSpeedTimerLinesAreNotSecondSteps() {
        Evidence.TrainingLog t = log("bloom.log", String.join("\n",
                "[2023-01-01 10:00:00,000] [INFO] [timer.py:260:stop] epoch=0/micro_step=90/global_step=90, RunningAvgSamplesPerSec=20.1,"
                        + " CurrSamplesPerSec=20.3, MemAllocated=12.3GB, MaxMemAllocated=20.1GB",
                " iteration      100/  292968 | consumed samples:        25600 | consumed tokens:     52428800 | elapsed time per iteration (s): 12.34 |"
                        + " learning rate: 3.000E-05 | global batch size:   256 | lm loss: 5.123E+00 | loss scale: 4096.0 | grad norm: 0.532 |"
                        + " actual seqlen:  2048 | number of skipped iterations:   0 | number of nan iterations:   0 | samples per second: 20.745 |"
                        + " tokens per gpu per second (tgs): 1327.7 | TFLOPs: 150.27 |",
                ""));
        assertEquals("megatron-deepspeed", t.framework());
        assertEquals(2, t.frameworkSpan().startLine());
        assertEquals(1, t.steps().size());
        Evidence.TrainStep s = t.steps().get(0);
        assertEquals(100, s.iteration());
        assertEquals(12.34, s.stepSeconds(), 1e-9);
        assertEquals(1327.7, s.tokensPerSecondPerGpu(), 1e-9);
        assertEquals(150.27, s.tflopsPerGpu(), 1e-9);
        assertEquals(256, s.globalBatch());
    }

    @Test
    void nemoProgressBarRedrawsAreLinesOfTheirOwnAndNemo2LogLinesReadAlike() {
        Evidence.TrainingLog bar = log("nemo.log",
                "Epoch 0: :   1%|          | 10/1000 [00:31<51:20, reduced_train_loss=10.40, global_step=9.000, consumed_samples=1280.0,"
                        + " train_step_timing in s=2.950]\r"
                        + "Epoch 0: :   1%|          | 10/1000 [00:31<51:20, reduced_train_loss=10.40, global_step=9.000, consumed_samples=1280.0,"
                        + " train_step_timing in s=2.950]\r"
                        + "Epoch 0: :   1%|          | 11/1000 [00:34<51:10, reduced_train_loss=10.30, global_step=10.00, consumed_samples=1408.0,"
                        + " train_step_timing in s=2.910]\n");
        assertEquals("nemo", bar.framework());
        assertEquals(List.of(9L, 10L), bar.steps().stream().map(Evidence.TrainStep::iteration).toList(), "a redraw of step 9 is one step");
        assertEquals(List.of(2.95, 2.91), bar.steps().stream().map(Evidence.TrainStep::stepSeconds).toList());
        assertEquals(3, bar.steps().get(1).span().startLine(), "a carriage return ends a line as gpulint counts lines");
        Evidence.TrainingLog two = log("nemo2.log", "[NeMo I 2025-01-10 12:00:00 nemo_logging:393] Training epoch 0, iteration 10/99 | lr: 1.5e-05"
                + " | global_batch_size: 128 | global_step: 10 | reduced_train_loss: 10.45 | train_step_timing in s: 2.532 | consumed_samples: 1408\n");
        Evidence.TrainStep s = two.steps().get(0);
        assertEquals(10, s.iteration());
        assertEquals(2.532, s.stepSeconds(), 1e-9);
        assertEquals(128, s.globalBatch());
        assertEquals(168, two.frameworkSpan().startColumn());
    }

    @Test
    void torchtitanStepsWithColourCodesTheWarmupKeptAndOtherRanksCopiesPassedOver() {
        Evidence.TrainingLog t = log("titan.log", String.join("\n",
                "[rank0]:[titan] 2025-01-10 12:00:00,123 - root - INFO - Training starts at step 1.",
                "[rank0]:[titan] 2025-01-10 12:00:09,001 - root - INFO - \u001b[31mstep:  1  \u001b[32mloss: 12.2364  \u001b[33mmemory: 41.82GiB(52.81%)"
                        + "  \u001b[34mtps: 1,402  \u001b[36mtflops: 81.20  \u001b[35mmfu: 8.21%\u001b[39m",
                "[rank1]:[titan] 2025-01-10 12:00:09,002 - root - INFO - step:  1  loss: 12.2364  memory: 41.80GiB(52.79%)  tps: 1,399  tflops: 81.01  mfu: 8.19%",
                "[rank0]:[titan] 2025-01-10 12:00:19,201 - root - INFO - step: 10  loss:  9.1240  memory: 61.32GiB(77.43%)  tps: 6,912  tflops: 400.20  mfu: 40.47%",
                ""));
        assertEquals("torchtitan", t.framework());
        assertEquals(2, t.steps().size());
        Evidence.TrainStep warm = t.steps().get(0);
        assertEquals(1, warm.iteration());
        assertEquals(1402, warm.tokensPerSecondPerGpu(), 1e-9);
        assertEquals(81.2, warm.tflopsPerGpu(), 1e-9);
        assertEquals(8.21, warm.mfuPercent(), 1e-9);
        assertEquals(41.82, warm.memoryGib(), 1e-9);
        assertEquals(-1, warm.stepSeconds());
        assertEquals(2, warm.span().startLine());
        Evidence.TrainStep s = t.steps().get(1);
        assertEquals(4, s.span().startLine());
        assertEquals(6912, s.tokensPerSecondPerGpu(), 1e-9);
        assertEquals(40.47, s.mfuPercent(), 1e-9);
        // the older layout: words per second
        Evidence.TrainingLog old = log("old.log", "2024-04-01 10:00:00,000 - root - INFO - step: 20  loss:  8.9910  memory: 20.12GiB(25.41%)  wps: 2,345  mfu: 10.20%\n");
        assertEquals(2345, old.steps().get(0).tokensPerSecondPerGpu(), 1e-9);
        assertEquals(-1, old.steps().get(0).tflopsPerGpu());
    }

    @Test
    void composerBatchBlocksGiveStepTimeFromBatchesPerSecondNotTheBatchCounter() {
        Evidence.TrainingLog t = log("mpt.log", String.join("\n",
                "[batch=10/4800]:",
                "\t Train time/batch: 9",
                "\t Train time/sample: 2304",
                "\t Train memory/peak_allocated_mem: 64.4",
                "\t Train throughput/batches_per_sec: 0.0625",
                "\t Train throughput/tokens_per_sec: 236289.1",
                "\t Train throughput/device/tokens_per_sec: 3692.0",
                "\t Train throughput/device/flops_per_sec: 2.16e14",
                "\t Train throughput/device/mfu: 0.6925",
                "\t Train loss/train/total: 7.9",
                "[batch=11/4800]:",
                "\t Train throughput/batches_per_sec: 0.0500",
                ""));
        assertEquals("composer", t.framework());
        assertEquals(2, t.steps().size());
        Evidence.TrainStep s = t.steps().get(0);
        assertEquals(10, s.iteration());
        assertEquals(16.0, s.stepSeconds(), 1e-9);
        assertEquals(3692.0, s.tokensPerSecondPerGpu(), 1e-9);
        assertEquals(216.0, s.tflopsPerGpu(), 1e-9);
        assertEquals(69.25, s.mfuPercent(), 1e-9);
        assertEquals(64.4e9 / (1L << 30), s.memoryGib(), 1e-9);
        assertEquals(1, s.span().startLine());
        assertEquals(20.0, t.steps().get(1).stepSeconds(), 1e-9);
        assertEquals(11, t.steps().get(1).span().startLine());
    }

    @Test
    void deepSpeedTimerLinesTakeTheStepTimeFromTheConfiguredBatchAndCountSkippedStepsSoFar() {
        String head = "[2024-01-01 10:00:00,000] [INFO] [config.py:1000:print]   train_batch_size ............. 256\n";
        String steps = "[2024-01-01 10:00:10,000] [INFO] [logging.py:96:log_dist] [Rank 0] step=10, skipped=2, lr=[1e-05], mom=[(0.9, 0.999)]\n"
                + "[2024-01-01 10:00:10,000] [INFO] [timer.py:260:stop] epoch=0/micro_step=10/global_step=10, RunningAvgSamplesPerSec=45.6,"
                + " CurrSamplesPerSec=51.2, MemAllocated=12.3GB, MaxMemAllocated=20.1GB\n";
        Evidence.TrainingLog t = log("ds.log", head + steps);
        assertEquals("deepspeed", t.framework());
        Evidence.TrainStep s = t.steps().get(0);
        assertEquals(10, s.iteration());
        assertEquals(5.0, s.stepSeconds(), 1e-9);
        assertEquals(20.1, s.memoryGib(), 1e-9);
        assertEquals(256, s.globalBatch());
        assertEquals(2, t.skipped());
        assertEquals(3, s.span().startLine());
        Evidence.TrainingLog noBatch = log("ds2.log", steps);
        assertEquals(-1, noBatch.steps().get(0).stepSeconds(), "samples per second without the batch give no step time");
    }

    @Test
    void otherTextStaysQuietAndANamedLogWithoutStepsIsANote() {
        assertEquals(Optional.empty(), EvidenceReader.sniff("Epoch 1 done, loss: 2.1\nstep 10 of 100\n"));
        assertFalse(Readers.isEvidence("notes.txt", "We measured the elapsed time per iteration by hand.\n"));
        ReadResult named = read("job.train.log", "Traceback (most recent call last):\n  File \"train.py\", line 1\n");
        assertEquals(List.of("SYN006"), named.problems().stream().map(f -> f.ruleId()).toList());
        assertTrue(named.problems().get(0).message().contains("named as training log output"), named.problems().get(0).message());
    }

    @Test
    void aLogPastTheStepBoundIsASyntaxFindingAtTheLineNotAnEndlessRead() {
        List<String> lines = Text.lines("step: 1  loss: 9.0  tps: 100\nstep: 2  loss: 8.0  tps: 100\nstep: 3  loss: 7.0  tps: 100\n"
                + "step: 4  loss: 6.0  tps: 100\n");
        Unreadable e = assertThrows(Unreadable.class, () -> TrainingLogReader.read("t.log", lines, 3));
        assertEquals(4, e.span.startLine());
        assertTrue(e.getMessage().startsWith("more than 3 training steps"), e.getMessage());
        assertEquals(4, TrainingLogReader.read("t.log", lines, 4).steps().size());
    }
}
