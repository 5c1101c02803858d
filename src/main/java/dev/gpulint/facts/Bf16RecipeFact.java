package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * The fp8 scaling recipe of a job that keeps its first or last layers in bf16 (Megatron's {@code --first-last-layers-bf16},
 * NeMo 2's and Megatron-Bridge's {@code first_last_layers_bf16}), as the job's format states it (PAR016). Megatron-Core's
 * TransformerConfig ({@code __post_init__}, under {@code if self.fp8:}) raises "Delayed scaling does not support first /
 * last layer in BF16." when the switch is on with {@code fp8_recipe == "delayed"}: entering and leaving the fp8 context
 * layer by layer breaks delayed scaling's amax reduction (megatron/core/fp8_utils.py). One fact per fp8 job with the switch
 * on whose recipe the format states or defaults (Megatron-LM's {@code --fp8-recipe} default is "delayed").
 */
public final class Bf16RecipeFact {
    private final String jobName, file, switchKey, recipe;
    private final boolean recipeDefault;
    private final Span switchSpan, recipeSpan;

    /**
     * @param switchKey     the switch as the job's file writes it ({@code --first-last-layers-bf16})
     * @param recipe        the recipe, lower case ("delayed", "tensorwise", "mxfp8", "blockwise")
     * @param recipeDefault the recipe is not written: the format's default, at the place of {@code --fp8-format}
     */
    public Bf16RecipeFact(String jobName, String file, String switchKey, Span switchSpan, String recipe, boolean recipeDefault,
                          Span recipeSpan) {
        if (recipe == null) throw new IllegalArgumentException("a recipe");
        this.jobName = jobName; this.file = file; this.switchKey = switchKey; this.switchSpan = switchSpan; this.recipe = recipe;
        this.recipeDefault = recipeDefault; this.recipeSpan = recipeSpan;
    }

    /** The job's name. */
    public String getJobName() { return jobName; }
    /** The file the job is declared in. */
    public String getFile() { return file; }
    /** The switch as the job's file writes it: "--first-last-layers-bf16", "mixed_precision.first_last_layers_bf16". */
    public String getSwitchKey() { return switchKey; }
    /** Where the switch is written. */
    public Span getSwitchSpan() { return switchSpan; }
    /** The fp8 recipe, lower case: "delayed", "tensorwise", "mxfp8", "blockwise". */
    public String getRecipe() { return recipe; }
    /** The recipe is delayed scaling (Megatron-Core's Fp8Recipe.delayed), which TransformerConfig refuses with the switch. */
    public boolean isDelayed() { return "delayed".equals(recipe); }
    /** The recipe is not written: the format's default (Megatron-LM's --fp8-recipe, "delayed"). */
    public boolean isRecipeDefault() { return recipeDefault; }
    /** Where the recipe is written; where --fp8-format is when it is the default. */
    public Span getRecipeSpan() { return recipeSpan; }

    /** The fingerprint identity of the job's bf16 layers' recipe. */
    public String identity() { return "training_job:" + jobName + "/bf16-layers/recipe"; }

    @Override public String toString() {
        return "Bf16RecipeFact[" + jobName + " " + switchKey + " recipe=" + recipe + (recipeDefault ? " (default)" : "") + "]";
    }
}
