package dev.ovnj.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compiles every Java snippet of README.md and docs/*.md against the modules, so a renamed method,
 * a missing import or a dependency the reader would lack fails the build instead of the reader.
 *
 * <p>A snippet is a {@code ```java} block. One that declares a class (it starts with an annotation,
 * {@code class} or {@code import}) is compiled as a file of its own; any other is the body of a
 * method that may throw. What a snippet uses without declaring it (a client, a registry, an
 * informer of the reader's own) is declared in an HTML comment right above the block,
 * {@code <!-- java-context: String remotes; PrintStream out; -->}: members of the class around the
 * method, and {@code import} lines. Every public package of ovnj, and the JDK packages a snippet
 * commonly uses, are imported.
 */
class DocSnippetsTest {
    private static final Path ROOT = Path.of("../..");
    private static final String CONTEXT = "<!-- java-context:";
    private static final List<String> COMMON_IMPORTS = List.of(
            "java.io.*", "java.net.*", "java.nio.file.*", "java.time.*", "java.util.*", "java.util.concurrent.*",
            "java.util.function.*", "org.junit.jupiter.api.*", "org.testcontainers.junit.jupiter.*",
            "io.micrometer.core.instrument.*");

    /** One snippet: where it is, what it declares around itself, and its code. */
    record Snippet(Path file, int line, List<String> context, List<String> code) {
        String where() {
            return ROOT.relativize(file).normalize() + ":" + line;
        }

        boolean declaresClasses() {
            String first = code.stream().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("//")).findFirst().orElse("");
            return first.startsWith("@") || first.startsWith("class ") || first.startsWith("import ");
        }
    }

    @Test
    void everyJavaSnippetOfTheReadmeAndTheDocsCompiles(@TempDir Path out) throws IOException {
        List<Snippet> snippets = new ArrayList<>();
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            Stream.concat(Stream.of(ROOT.resolve("README.md")), docs.filter(p -> p.toString().endsWith(".md")).sorted())
                    .forEach(f -> snippets.addAll(snippets(f)));
        }
        assertThat(snippets).as("snippets found").hasSizeGreaterThan(10);

        List<String> imports = new ArrayList<>();
        ovnjPackages().forEach(p -> imports.add("import " + p + ".*;"));
        COMMON_IMPORTS.forEach(p -> imports.add("import " + p + ";"));
        imports.add("import static org.assertj.core.api.Assertions.assertThat;");

        List<JavaFileObject> units = new ArrayList<>();
        List<Unit> sources = new ArrayList<>();
        for (int i = 0; i < snippets.size(); i++) {
            Unit u = Unit.of(snippets.get(i), "snippet" + i, imports);
            sources.add(u);
            units.add(u.source());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            List<String> options = List.of("-classpath", classpath(), "-d", out.toString(), "-proc:none", "-nowarn",
                    "-Xlint:none", "-Xmaxerrs", "500");
            javac.getTask(new StringWriter(), files, diagnostics, options, null, units).call();
        }
        List<String> errors = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() != Diagnostic.Kind.ERROR) {
                continue;
            }
            Unit u = sources.stream().filter(s -> s.source() == d.getSource()).findFirst().orElse(null);
            errors.add((u == null ? "?" : u.where(d.getLineNumber())) + ": " + d.getMessage(Locale.ROOT).lines().findFirst().orElse(""));
        }
        assertThat(errors).as("snippets that do not compile").isEmpty();
    }

    @Test
    void aSnippetTakesTheContextRightAboveIt() {
        List<String> lines = List.of("text", "<!-- java-context: String remotes;", "PrintStream out; -->",
                "<!-- quickstart:begin -->", "```java", "out.println(remotes);", "```", "", "```java", "int x = 1;", "```");
        List<Snippet> found = snippets(Path.of("x.md"), lines);
        assertThat(found).hasSize(2);
        assertThat(found.get(0).context()).containsExactly("String remotes;", "PrintStream out;");
        assertThat(found.get(0).code()).containsExactly("out.println(remotes);");
        assertThat(found.get(0).line()).isEqualTo(6);
        assertThat(found.get(1).context()).isEmpty();
    }

    /** A compilation unit made of one snippet, and how its lines map back to the document's. */
    private record Unit(Snippet snippet, JavaFileObject source, int firstCodeLine) {
        static Unit of(Snippet s, String pkg, List<String> imports) {
            List<String> lines = new ArrayList<>();
            lines.add("package " + pkg + ";");
            lines.addAll(imports);
            s.context().stream().filter(c -> c.startsWith("import ")).forEach(lines::add);
            List<String> members = s.context().stream().filter(c -> !c.startsWith("import ")).toList();
            int first;
            if (s.declaresClasses()) {
                first = lines.size() + 1;
                lines.addAll(s.code());
                lines.add("class Context {");
                lines.addAll(members);
                lines.add("}");
            } else {
                lines.add("@SuppressWarnings(\"all\") abstract class Snippet {");
                lines.addAll(members);
                lines.add("void snippet() throws Exception {");
                first = lines.size() + 1;
                lines.addAll(s.code());
                lines.add("}}");
            }
            String text = String.join("\n", lines) + "\n";
            String name = s.declaresClasses() ? "Context" : "Snippet";
            JavaFileObject source = new SimpleJavaFileObject(URI.create("string:///" + pkg + "/" + name + ".java"), JavaFileObject.Kind.SOURCE) {
                @Override
                public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                    return text;
                }
            };
            return new Unit(s, source, first);
        }

        String where(long line) {
            long inCode = line - firstCodeLine;
            return inCode >= 0 && inCode < snippet.code().size() ? ROOT.relativize(snippet.file()).normalize() + ":" + (snippet.line() + inCode)
                    : snippet.where() + " (its context)";
        }
    }

    static List<Snippet> snippets(Path file) {
        try {
            return snippets(file, Files.readAllLines(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The {@code ```java} blocks of a document, each with the context comment above it. */
    static List<Snippet> snippets(Path file, List<String> lines) {
        List<Snippet> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).strip().equals("```java")) {
                continue;
            }
            int end = i + 1;
            while (end < lines.size() && !lines.get(end).strip().equals("```")) {
                end++;
            }
            assertThat(end).as("%s:%d: the java block ends", file, i + 1).isLessThan(lines.size());
            out.add(new Snippet(file, i + 2, context(lines, i), lines.subList(i + 1, end)));
            i = end;
        }
        return out;
    }

    /** The members and imports of the {@code java-context} comment among the comments right above line {@code fence}. */
    private static List<String> context(List<String> lines, int fence) {
        int i = fence - 1;
        while (i >= 0 && lines.get(i).strip().endsWith("-->")) {
            int start = i;
            while (start >= 0 && !lines.get(start).strip().startsWith("<!--")) {
                start--;
            }
            if (start < 0) {
                break;
            }
            if (lines.get(start).strip().startsWith(CONTEXT)) {
                String text = String.join("\n", lines.subList(start, i + 1)).strip();
                text = text.substring(CONTEXT.length(), text.length() - "-->".length());
                return text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
            }
            i = start - 1;
        }
        return List.of();
    }

    /** The classpath the tests run with: surefire's test classpath when it hides it in a manifest-only jar. */
    private static String classpath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    /** Every package of ovnj's modules on the classpath that holds a public top-level class. */
    private static Set<String> ovnjPackages() throws IOException {
        Set<String> packages = new TreeSet<>();
        for (String entry : classpath().split(File.pathSeparator)) {
            Path p = Path.of(entry);
            if (Files.isDirectory(p)) {
                try (Stream<Path> walk = Files.walk(p)) {
                    walk.map(c -> p.relativize(c).toString().replace(File.separatorChar, '/')).forEach(c -> addPackage(packages, c));
                }
            } else if (entry.endsWith(".jar") && Files.isRegularFile(p) && p.getFileName().toString().matches(
                    "(ovsdb-core|ovn-nb-model|ovn-sb-model|lb-engine|testkit|testkit-inmemory|ovnj-micrometer|ovnj-kubernetes)-.*")) {
                try (JarFile jar = new JarFile(p.toFile())) {
                    for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                        addPackage(packages, e.nextElement().getName());
                    }
                }
            }
        }
        // The examples' own code (the module under test) is not what a reader has.
        packages.removeIf(pkg -> pkg.startsWith("dev.ovnj.examples"));
        return packages;
    }

    private static void addPackage(Set<String> packages, String classFile) {
        if (classFile.startsWith("dev/ovnj/") && classFile.endsWith(".class") && !classFile.contains("$")
                && !classFile.endsWith("package-info.class") && !classFile.endsWith("module-info.class")) {
            packages.add(classFile.substring(0, classFile.lastIndexOf('/')).replace('/', '.'));
        }
    }
}
