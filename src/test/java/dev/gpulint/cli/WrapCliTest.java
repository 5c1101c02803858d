package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The help, explain and rules wrap at the terminal's width (COLUMNS), between words only. */
class WrapCliTest {

    @AfterEach
    void restore() { Main.env = System::getenv; }

    private static void fits(String text, int width) {
        boolean fence = false;
        for (String line : text.split("\n")) {
            if (line.strip().startsWith("```")) fence = !fence;
            if (fence || line.strip().startsWith("|")) continue;
            // only a single word longer than the line may stick out
            assertTrue(line.length() <= width || !line.strip().contains(" "), line.length() + " > " + width + ": " + line);
        }
    }

    @Test
    void theHelpWrapsAtColumnsWithoutBreakingNames() {
        for (int width : new int[] {60, 80, 120}) {
            Main.env = Map.of("COLUMNS", Integer.toString(width))::get;
            String help = PlanCli.run("--help").out();
            fits(help, width);
            assertTrue(help.contains(".gpulint.yaml"), help);
            assertTrue(!help.contains(".gpulint.\n"), help);
        }
        Main.env = Map.of("COLUMNS", "120")::get;
        String wide = PlanCli.run("--help").out();
        assertTrue(wide.contains("  -c, --config=FILE          configuration file (default: the nearest .gpulint.yaml above the linted paths, "
                + "else above\n"), wide);
    }

    @Test
    void explainAndRulesWrapAtTheTerminal() {
        Main.env = Map.of("COLUMNS", "72")::get;
        String page = PlanCli.run("explain", "PAR002").out();
        fits(page, 72);
        assertTrue(page.startsWith("# PAR002 tp-crosses-node"), page);
        String rules = PlanCli.run("rules").out();
        fits(rules, 72);
        // into a pipe or a file, without COLUMNS, the page is as written
        Main.env = Map.of("GPULINT_STDOUT_TTY", "0")::get;
        assertEquals(dev.gpulint.meta.RuleCatalog.builtIn().get("PAR002").orElseThrow().helpMarkdown(),
                PlanCli.run("explain", "PAR002").out());
    }

    @Test
    void aWrappedLineContinuesUnderItsText() {
        String item = "- keep tp within the NVLink domain of 8 GPUs and put pp across the nodes of .gpulint.yaml";
        assertEquals("- keep tp within the NVLink domain of 8\n  GPUs and put pp across the nodes of\n  .gpulint.yaml",
                Wrap.text(item, 40));
        String option = "  -c, --config=FILE   configuration file (default: the nearest .gpulint.yaml above)";
        assertEquals("  -c, --config=FILE   configuration file\n                      (default: the nearest\n"
                + "                      .gpulint.yaml above)", Wrap.text(option, 44));
        assertEquals("```\n" + "x ".repeat(40) + "\n```", Wrap.text("```\n" + "x ".repeat(40) + "\n```", 40), "code stays as written");
    }
}
