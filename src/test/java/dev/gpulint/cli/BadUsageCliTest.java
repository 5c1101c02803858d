package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Bad usage is short and suggests the nearest option, value or command; a closed pipe ends quietly; colour follows standard output. */
class BadUsageCliTest {

    @AfterEach
    void restore() {
        ReportFile.stdout = null;
        Main.env = System::getenv;
    }

    private static void shortError(PlanCli.Run r, String first, String suggestion, String help) {
        assertEquals(2, r.code(), r.err());
        assertEquals("", r.out());
        String[] lines = r.err().split("\n");
        assertEquals(3, lines.length, r.err());
        assertEquals(first, lines[0]);
        assertEquals("gpulint: did you mean " + suggestion + "?", lines[1]);
        assertEquals("try '" + help + " --help'", lines[2]);
    }

    @Test
    void aMistypedValueOrOptionGetsTheNearestOne() {
        shortError(PlanCli.run("--format", "jsn", "."),
                "gpulint: Invalid value for option '--format': expected one of [text, json, sarif, github, junit, gitlab] "
                        + "(case-insensitive) but was 'jsn'", "json", "gpulint");
        shortError(PlanCli.run("--fail-on=eror", "."),
                "gpulint: Invalid value for option '--fail-on': expected one of [error, warning, note, never] "
                        + "(case-insensitive) but was 'eror'", "error", "gpulint");
        shortError(PlanCli.run("--no-colour", "."), "gpulint: Unknown option: '--no-colour'", "--no-color", "gpulint");
        shortError(PlanCli.run("rules", "--formt"), "gpulint: Unknown option: '--formt'", "--format", "gpulint rules");
    }

    @Test
    void aMistypedCommandGetsTheNearestOne() {
        shortError(PlanCli.run("help", "chek"), "gpulint: Unknown subcommand 'chek'.", "check", "gpulint");
        PlanCli.Run chek = PlanCli.run("chek", ".");
        assertEquals(2, chek.code());
        assertEquals("gpulint: 'chek' is neither a command nor a file or folder\ngpulint: did you mean 'gpulint check'?\n"
                + "try 'gpulint --help'\n", chek.err());
        PlanCli.Run explain = PlanCli.run("explian", "PAR002");
        assertTrue(explain.err().contains("did you mean 'gpulint explain'?"), explain.err());
        // a path that does exist is linted, whatever it looks like
        assertEquals("gpulint: no such file or folder: zzz-nothing\n", PlanCli.run("zzz-nothing").err());
    }

    @Test
    void aClosedPipeEndsQuietlyAsGrepDoes() {
        OutputStream closed = new OutputStream() {
            @Override public void write(int b) throws IOException { throw new IOException("Broken pipe"); }
        };
        ReportFile.stdout = new ReportFile.Stdout(closed);
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"../samples/broken/tp16-job.yaml"},
                new PrintWriter(new OutputStreamWriter(ReportFile.stdout, StandardCharsets.UTF_8)), new PrintWriter(err));
        assertEquals(141, code);
        assertEquals("", err.toString());
        // a disk that is full is still reported
        OutputStream full = new OutputStream() {
            @Override public void write(int b) throws IOException { throw new IOException("No space left on device"); }
        };
        ReportFile.stdout = new ReportFile.Stdout(full);
        StringWriter err2 = new StringWriter();
        int code2 = Main.run(new String[] {"../samples/broken/tp16-job.yaml"},
                new PrintWriter(new OutputStreamWriter(ReportFile.stdout, StandardCharsets.UTF_8)), new PrintWriter(err2));
        assertEquals(2, code2);
        assertTrue(err2.toString().startsWith("gpulint: cannot write the report to standard output"), err2.toString());
    }

    @Test
    void colourFollowsStandardOutputAndForceColorAndNoColor() {
        Main.env = Map.of("GPULINT_STDOUT_TTY", "1", "TERM", "xterm")::get;
        assertTrue(PlanCli.run("../samples/broken/tp16-job.yaml").out().contains("\u001b["), "a terminal gets colour");
        assertEquals(false, PlanCli.run("--no-color", "../samples/broken/tp16-job.yaml").out().contains("\u001b["));
        Main.env = Map.of("GPULINT_STDOUT_TTY", "0")::get;
        assertEquals(false, PlanCli.run("../samples/broken/tp16-job.yaml").out().contains("\u001b["), "a pipe gets none");
        Main.env = Map.of("GPULINT_STDOUT_TTY", "0", "FORCE_COLOR", "1")::get;
        assertTrue(PlanCli.run("../samples/broken/tp16-job.yaml").out().contains("\u001b["), "FORCE_COLOR");
        Main.env = Map.of("GPULINT_STDOUT_TTY", "1", "FORCE_COLOR", "0")::get;
        assertEquals(false, PlanCli.run("../samples/broken/tp16-job.yaml").out().contains("\u001b["), "FORCE_COLOR=0");
    }
}
