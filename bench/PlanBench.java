import dev.gpulint.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * What one `gpulint plan` costs in CPU once the JVM is up: runs the CLI in-process on the given arguments, warm-up
 * rounds first, then N timed rounds, and prints the process CPU time (user + sys, all threads, GC included) and the wall
 * time of each round, their minimum and median, and the round's GC time and bytes allocated (which do not depend on
 * the load at all). The CPU time of a round barely depends on the machine's other load, where
 * bench.py's whole-process wall times move by tens of percent on a shared 2-core machine: compare two builds with it, each
 * in its own JVM with the launcher's flags. The plan's output must be the same every round (it is checked). From the
 * repository's root after a build:
 *   java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss8m -cp src/target/gpulint-VERSION-all.jar bench/PlanBench.java \
 *        ROUNDS plan --config bench/generated/plan-hybrid/.gpulint.yaml bench/generated/plan-hybrid/model_config.yaml \
 *        bench/generated/plan-hybrid/cluster.yaml
 */
public class PlanBench {
    public static void main(String[] args) {
        int rounds = Integer.parseInt(args[0]), warm = 2;
        String[] cli = Arrays.copyOfRange(args, 1, args.length);
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        double[] cpu = new double[rounds], wall = new double[rounds], alloc = new double[rounds], gc = new double[rounds];
        String first = null;
        for (int r = -warm; r < rounds; r++) {
            StringWriter out = new StringWriter(), err = new StringWriter();
            long a0 = allocated(threads), g0 = gcMillis(), c0 = os.getProcessCpuTime(), t0 = System.nanoTime();
            int code = Main.run(cli, new PrintWriter(out), new PrintWriter(err));
            long c1 = os.getProcessCpuTime(), t1 = System.nanoTime(), g1 = gcMillis(), a1 = allocated(threads);
            if (code != 0 && code != 1) throw new IllegalStateException("exit " + code + ": " + err);
            if (first == null) first = out.toString();
            else if (!first.equals(out.toString())) throw new IllegalStateException("round " + r + " printed another plan");
            if (r >= 0) {
                cpu[r] = (c1 - c0) / 1e9;
                wall[r] = (t1 - t0) / 1e9;
                alloc[r] = (a1 - a0) / 1e6;
                gc[r] = (g1 - g0) / 1e3;
                System.out.printf(java.util.Locale.ROOT, "round %d: cpu %.3f s, wall %.3f s, gc %.3f s, allocated %.0f MB%n",
                        r + 1, cpu[r], wall[r], gc[r], alloc[r]);
            }
        }
        System.out.printf(java.util.Locale.ROOT, "cpu min %.3f median %.3f s; wall min %.3f median %.3f s; gc median %.3f s; "
                + "allocated median %.0f MB (%d rounds, load %.2f)%n",
                min(cpu), median(cpu), min(wall), median(wall), median(gc), median(alloc), rounds, os.getSystemLoadAverage());
    }

    /** Bytes allocated so far by the live threads (the common pool's workers outlive a round). */
    static long allocated(com.sun.management.ThreadMXBean threads) {
        long sum = 0;
        for (long b : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) if (b > 0) sum += b;
        return sum;
    }

    static long gcMillis() {
        long sum = 0;
        for (var g : ManagementFactory.getGarbageCollectorMXBeans()) sum += Math.max(0, g.getCollectionTime());
        return sum;
    }

    static double min(double[] a) { return Arrays.stream(a).min().orElse(0); }

    static double median(double[] a) {
        double[] s = a.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
