package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.spec.Model;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every srun line of a batch script is a step of its own, each with its --gres compared with the job's allocation (CONSIST001
 * through OriginAnalysis); the script's input bounds the work: the first {@link LaunchScriptAdapter#MAX_STEPS} are stated,
 * and SYN012 says, once, that the later ones are not compared.
 */
class SrunStepsTest {

    private static String script(int steps) {
        StringBuilder b = new StringBuilder("#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gres=gpu:a100:8\n");
        for (int i = 0; i < steps; i++) b.append("srun --gres=gpu:a100:").append(i % 2 == 0 ? 8 : 4).append(" bash step.sh\n");
        return b.toString();
    }

    private static List<Specs.Stated> stated(Model m, String quantity) {
        return m.jobs().get(0).origin().stated().stream().filter(s -> s.quantity().equals(quantity)).toList();
    }

    @Test
    void eachSrunIsAStepOfItsOwn() {
        Model m = Foreign.model("steps.sbatch", script(3));
        List<Specs.Stated> steps = stated(m, "step_gpus_per_node");
        assertEquals(List.of("8 at 4", "4 at 5", "8 at 6"), steps.stream().map(s -> s.value() + " at " + s.span().startLine()).toList(),
                "before, the first srun's --gres alone was read");
        assertEquals(3, stated(m, "step_gpu_type").size());
        assertEquals(List.of("type a100"), stated(m, "gpu_type").stream().map(Specs.Stated::value).toList(), "the job's type, once");
    }

    @Test
    void theStepsPastTheCapAreSaidOnceAndNotStated() {
        int n = LaunchScriptAdapter.MAX_STEPS + 10;
        Model m = Foreign.model("steps.sbatch", script(n));
        assertEquals(LaunchScriptAdapter.MAX_STEPS, stated(m, "step_gpus_per_node").size());
        List<String> said = m.findings().stream().filter(f -> f.ruleId().equals("SYN012"))
                .map(f -> f.level() + " " + f.span().startLine() + ":" + f.span().startColumn() + " " + f.message()).toList();
        assertEquals(List.of("WARNING " + (4 + LaunchScriptAdapter.MAX_STEPS) + ":13 this srun's --gres and the 9 after it are past"
                + " the first 64 srun GPU requests of the script, which gpulint compares with the job's allocation (a bound on the"
                + " work a script can ask for); these are not compared; split the steps into scripts of fewer srun lines, or check"
                + " them by hand."), said);
    }
}
