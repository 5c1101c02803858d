package dev.gpulint.settle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.read.SourceFile;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import dev.gpulint.testing.CpuBudget;

/** Hostile suppression comments: reading them and applying them stays linear. */
class SuppressionsHostileTest {

    private static final LocalDate TODAY = LocalDate.of(2026, 12, 3);

    private static List<Finding> apply(List<SourceFile> files, List<Finding> findings) {
        return Suppressions.apply(files, findings, RuleCatalog.builtIn(), TODAY);
    }

    @Test
    void spacesThenABangDoNotBacktrack() {
        for (int n : new int[] {160, 400, 100_000}) {
            SourceFile f = SourceFile.of("c.yaml", "a: 1  # gpulint: ignore" + " ".repeat(n) + "!\n");
            List<Finding> out = CpuBudget.ofSeconds(15).run(() -> apply(List.of(f), List.of()));
            assertEquals(1, out.size());
            assertTrue(out.get(0).message().startsWith("this suppression names no rule"), out.get(0).message());
        }
    }

    @Test
    void otherHostileShapesStayFast() {
        String[] bodies = {
            " NET001" + " , NET001".repeat(20_000) + " !",
            " NET001 --" + " until=x".repeat(20_000) + " !",
            " NET001 until=" + "a--".repeat(30_000) + " x",
            " NET001 -- " + "\t ".repeat(50_000) + "until=",
        };
        for (String body : bodies) {
            SourceFile f = SourceFile.of("c.yaml", "a: 1  # gpulint: ignore" + body + "\n" + "# gpulint:".repeat(20_000) + "\n");
            CpuBudget.ofSeconds(15).run(() -> apply(List.of(f), List.of()));
        }
    }

    @Test
    void theFormsStillRead() {
        assertEquals(new SuppressionComment.Body(List.of("NET001", "PAR002"), "why so", "2027-01-01"),
                SuppressionComment.parse(" net001 ,PAR002 until=2027-01-01 -- why so "));
        assertEquals(new SuppressionComment.Body(List.of("NET001"), "after the reason", "2027-01-01"),
                SuppressionComment.parse(" NET001 -- after the reason until=2027-01-01"));
        assertEquals(new SuppressionComment.Body(List.of("NET001"), null, "2027-01-01"),
                SuppressionComment.parse(" NET001 until=2027-01-01"));
        assertEquals(new SuppressionComment.Body(List.of("NET001"), "x y", "abc"),
                SuppressionComment.parse(" NET001 until=abc--x y"), "the date may run into --, as before");
        assertEquals(new SuppressionComment.Body(List.of("NET001"), null, null), SuppressionComment.parse(" NET001"));
        assertEquals(SuppressionComment.Body.MALFORMED, SuppressionComment.parse(" NET001 why"));
        assertEquals(SuppressionComment.Body.MALFORMED, SuppressionComment.parse(" NET001x -- y"));
        assertEquals(null, SuppressionComment.find("a: 1 # gpulint: ignored"));
        assertEquals(List.of(5, 23), List.of(SuppressionComment.find("a: 1 //gpulint:  ignore X1")[0],
                SuppressionComment.find("a: 1 //gpulint:  ignore X1")[1]));
    }

    @Test
    void fiftyThousandInlineSuppressionsApplyInLinearTime() {
        int n = 50_000;
        StringBuilder sb = new StringBuilder();
        List<Finding> findings = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            sb.append("k").append(i).append(": 1  # gpulint: ignore NET001 -- lab\n");
            findings.add(Finding.of("NET001", Span.at("big.yaml", i, 1), "NET001@" + i, "NET001 found"));
        }
        SourceFile f = SourceFile.of("big.yaml", sb.toString());
        List<Finding> out = CpuBudget.ofSeconds(15).run(() -> apply(List.of(f), findings));
        assertEquals(n, out.size());
        assertTrue(out.stream().allMatch(Finding::suppressed));
    }
}
