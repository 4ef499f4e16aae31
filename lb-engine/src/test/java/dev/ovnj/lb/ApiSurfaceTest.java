package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleReader;
import java.lang.module.ResolvedModule;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The library's public API is what its modules export (module-info.java), and nothing exported
 * may name a type a user cannot reach: javac's exports lint says so for ovsdb-core, lb-engine and
 * micrometer as they compile, but it is off for the generated models, and it does not look at a
 * module's exports as a whole. These tests read the compiled descriptors of every library module
 * this one depends on. They need the module path (Surefire's default once module-info.java
 * exists); on a class path there is nothing to check.
 */
class ApiSurfaceTest {
    private static final List<String> LIBRARY = List.of("dev.ovnj.ovsdb", "dev.ovnj.nb", "dev.ovnj.sb", "dev.ovnj.lb");

    @Test
    void eachModuleExportsExactlyItsApiPackages() {
        assertThat(exported("dev.ovnj.ovsdb")).containsExactly("dev.ovnj.ovsdb", "dev.ovnj.ovsdb.cache", "dev.ovnj.ovsdb.client",
                "dev.ovnj.ovsdb.codegen", "dev.ovnj.ovsdb.data", "dev.ovnj.ovsdb.monitor", "dev.ovnj.ovsdb.schema", "dev.ovnj.ovsdb.tx",
                "dev.ovnj.ovsdb.typed");
        assertThat(exported("dev.ovnj.nb")).containsExactly("dev.ovnj.nb.command", "dev.ovnj.nb.eip", "dev.ovnj.nb.ip", "dev.ovnj.nb.model");
        assertThat(exported("dev.ovnj.sb")).containsExactly("dev.ovnj.sb.model");
        assertThat(exported("dev.ovnj.lb")).containsExactly("dev.ovnj.lb", "dev.ovnj.lb.diagnosis", "dev.ovnj.lb.plan", "dev.ovnj.lb.spec");
        // The engine's machinery is not API, whatever its classes' modifiers say.
        assertThat(module("dev.ovnj.lb").packages()).contains("dev.ovnj.lb.internal");
    }

    @Test
    void exportedSignaturesNameOnlyExportedTypes() throws Exception {
        List<String> leaks = new ArrayList<>();
        int checked = 0;
        for (String name : LIBRARY) {
            Set<String> exported = exported(name);
            for (String className : classes(name)) {
                Class<?> c = Class.forName(className, false, ApiSurfaceTest.class.getClassLoader());
                if (exported.contains(c.getPackageName()) && visible(c)) {
                    checked++;
                    for (Type t : signature(c)) {
                        leak(c, t, leaks);
                    }
                }
            }
        }
        assertThat(checked).as("public classes checked").isGreaterThan(300);
        assertThat(leaks).isEmpty();
    }

    private static ModuleDescriptor module(String name) {
        ResolvedModule m = ModuleLayer.boot().configuration().findModule(name)
                .orElseThrow(() -> new AssertionError(name + " is not on the module path"));
        return m.reference().descriptor();
    }

    /** Packages exported to every module, sorted. */
    private static Set<String> exported(String name) {
        return module(name).exports().stream().filter(e -> !e.isQualified()).map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static List<String> classes(String name) throws IOException {
        ResolvedModule m = ModuleLayer.boot().configuration().findModule(name).orElseThrow();
        try (ModuleReader reader = m.reference().open(); Stream<String> entries = reader.list()) {
            return entries.filter(e -> e.endsWith(".class") && !e.endsWith("module-info.class"))
                    .map(e -> e.substring(0, e.length() - ".class".length()).replace('/', '.')).toList();
        }
    }

    /** Public, and nested only in public classes: what a caller can name. */
    private static boolean visible(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
            if (!Modifier.isPublic(k.getModifiers())) {
                return false;
            }
        }
        return true;
    }

    private static List<Type> signature(Class<?> c) {
        List<Type> out = new ArrayList<>();
        if (c.getGenericSuperclass() != null) {
            out.add(c.getGenericSuperclass());
        }
        out.addAll(List.of(c.getGenericInterfaces()));
        boolean extensible = !Modifier.isFinal(c.getModifiers());
        for (Field f : c.getDeclaredFields()) {
            if (shown(f.getModifiers(), extensible)) {
                out.add(f.getGenericType());
            }
        }
        List<Executable> members = new ArrayList<>(List.of(c.getDeclaredMethods()));
        members.addAll(List.<Constructor<?>>of(c.getDeclaredConstructors()));
        for (Executable e : members) {
            if (shown(e.getModifiers(), extensible) && !e.isSynthetic()) {
                out.addAll(List.of(e.getGenericParameterTypes()));
                out.addAll(List.of(e.getGenericExceptionTypes()));
                if (e instanceof Method m) {
                    out.add(m.getGenericReturnType());
                }
            }
        }
        return out;
    }

    private static boolean shown(int modifiers, boolean extensible) {
        return Modifier.isPublic(modifiers) || (extensible && Modifier.isProtected(modifiers));
    }

    private static void leak(Class<?> owner, Type t, List<String> leaks) {
        if (t instanceof ParameterizedType p) {
            leak(owner, p.getRawType(), leaks);
            for (Type a : p.getActualTypeArguments()) {
                leak(owner, a, leaks);
            }
        } else if (t instanceof WildcardType w) {
            Stream.concat(Stream.of(w.getUpperBounds()), Stream.of(w.getLowerBounds())).forEach(b -> leak(owner, b, leaks));
        } else if (t instanceof GenericArrayType a) {
            leak(owner, a.getGenericComponentType(), leaks);
        } else if (t instanceof Class<?> c) {
            Class<?> k = c;
            while (k.isArray()) {
                k = k.getComponentType();
            }
            Module m = k.getModule();
            if (m.isNamed() && m.getName().startsWith("dev.ovnj.") && (!m.isExported(k.getPackageName()) || !visible(k))) {
                leaks.add(owner.getName() + " names " + k.getName());
            }
        }
    }
}
