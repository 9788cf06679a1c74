/*
 * Prints the tokens javac's own scanner (com.sun.tools.javac.parser, the
 * JavaTokenizer behind JavacParser) finds in Java source files, for
 * t/agree/java.sh.
 *
 * usage: java --add-exports ... JavaTokens < FILE-LIST > TOKENS
 *
 * For each file named on standard input (one path a line) it writes
 *     \001FILE path
 *     one line per token: the token's exact source text, from its start to
 *     its end position, with LF and CR written as \n and \r (as tokstream's
 *     view writes them)
 *     \001END ok        or  \001END error  when javac reported an error
 * Comments are not tokens for javac (it attaches them to the next token),
 * so none are printed.  Positions are those of the raw source, so a unicode
 * escape (\u0041) appears as written.
 */
import com.sun.tools.javac.file.JavacFileManager;
import com.sun.tools.javac.parser.Scanner;
import com.sun.tools.javac.parser.ScannerFactory;
import com.sun.tools.javac.parser.Tokens;
import com.sun.tools.javac.util.Context;
import com.sun.tools.javac.util.Log;

import java.io.BufferedReader;
import java.io.BufferedOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticListener;
import javax.tools.JavaFileObject;

public class JavaTokens {
	private static int errors;

	public static void main(String[] args) throws Exception {
		PrintStream out = new PrintStream(new BufferedOutputStream(System.out, 1 << 16),
						  false, StandardCharsets.UTF_8);
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		String path;

		while ((path = in.readLine()) != null) {
			if (path.isEmpty())
				continue;
			Context ctx = new Context();
			DiagnosticListener<JavaFileObject> listener = new DiagnosticListener<JavaFileObject>() {
				public void report(Diagnostic<? extends JavaFileObject> d) {
					if (d.getKind() == Diagnostic.Kind.ERROR)
						errors++;
				}
			};
			ctx.put(DiagnosticListener.class, listener);
			JavacFileManager fm = new JavacFileManager(ctx, true, StandardCharsets.UTF_8);
			JavaFileObject fo = fm.getJavaFileObjects(path).iterator().next();
			Log.instance(ctx).useSource(fo);
			String src = fo.getCharContent(true).toString();
			Scanner sc = ScannerFactory.instance(ctx).newScanner(src, false);

			errors = 0;
			out.print("\001FILE " + path + "\n");
			for (;;) {
				sc.nextToken();
				Tokens.Token t = sc.token();
				if (t.kind == Tokens.TokenKind.EOF)
					break;
				int end = Math.min(t.endPos, src.length());
				String text = src.substring(Math.min(t.pos, end), end);
				out.print(text.replace("\n", "\\n").replace("\r", "\\r"));
				out.print('\n');
			}
			out.print(errors > 0 ? "\001END error\n" : "\001END ok\n");
		}
		out.flush();
	}
}
