package dev.gpulint.app;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Files under a folder chosen by include and exclude globs relative to it, the way a build tool names
 * them (the Maven plugin's {@code includes}/{@code excludes}). The folders given as skipped (the build
 * folder, whatever its name, and the modules that lint themselves), dot-folders and {@code node_modules/}
 * are never entered, nor are symbolic links to folders (the walk stays inside the project). The result
 * is sorted.
 */
final class Globs {
    private Globs() {}

    /**
     * @param skipped folders never entered (absolute, or relative to {@code base})
     * @param unreadable receives the files and folders that could not be read: each costs only itself
     */
    static List<Path> match(Path base, List<String> includes, List<String> excludes, java.util.Collection<Path> skipped,
                            java.util.Map<Path, IOException> unreadable) throws IOException {
        List<PathMatcher> inc = matchers(includes);
        List<PathMatcher> exc = matchers(excludes);
        // "**/*.yaml" needs a folder; files at the top level match "*.yaml" too
        List<PathMatcher> top = new ArrayList<>();
        for (String g : includes) if (g.startsWith("**/")) top.add(FileSystems.getDefault().getPathMatcher("glob:" + g.substring(3)));
        TreeSet<Path> found = new TreeSet<>();
        java.util.Set<Path> skip = new java.util.HashSet<>();
        for (Path p : skipped) skip.add(base.resolve(p).toAbsolutePath().normalize());
        Files.walkFileTree(base, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes a) {
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                if (!dir.equals(base) && (name.startsWith(".") || skip.contains(dir) || name.equals("node_modules"))) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes a) {
                Path rel = base.relativize(file);
                boolean in = inc.stream().anyMatch(m -> m.matches(rel))
                        || (rel.getNameCount() == 1 && top.stream().anyMatch(m -> m.matches(rel)));
                if (in && exc.stream().noneMatch(m -> m.matches(rel))) found.add(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                if (!file.equals(base)) unreadable.put(file, e);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) {
                if (e != null) unreadable.put(dir, e);
                return FileVisitResult.CONTINUE;
            }
        });
        return new ArrayList<>(found);
    }

    private static List<PathMatcher> matchers(List<String> globs) {
        List<PathMatcher> out = new ArrayList<>();
        for (String g : globs) out.add(FileSystems.getDefault().getPathMatcher("glob:" + g));
        return out;
    }
}
