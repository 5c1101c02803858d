package dev.gpulint.derive;

/**
 * The numbers rules compare estimates with, set in .gpulint.yaml `thresholds:`.
 *
 * @param allreduceSeconds NET003's budget for one step's gradient all-reduce when the job gives no step_time
 * @param bubbleWarning    PAR006 warns when the pipeline bubble is at least this fraction of the step
 * @param bubbleNote       PAR006 notes when the bubble is above this fraction
 * @param memoryWarning    MEM002 warns when model states use more than this fraction of GPU memory
 */
public record Thresholds(double allreduceSeconds, double bubbleWarning, double bubbleNote, double memoryWarning) {
    public static final Thresholds DEFAULT = new Thresholds(1.0, 0.5, 0.25, 0.9);
}
