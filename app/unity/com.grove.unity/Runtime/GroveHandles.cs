// What libgrove hands out and C# must give back once: a graph's and a session's handle as SafeHandles
// (ReleaseHandle closes them once, from Dispose or, if the owner forgot, from the finalizer; a call in
// flight holds a reference, so a Dispose on another thread waits for it), and the UTF-8 strings that
// cross the boundary. Unity-free.
using System;
using System.Runtime.InteropServices;
using System.Text;
using Microsoft.Win32.SafeHandles;

namespace Grove
{
    /// <summary>A grove_graph *: a number libgrove checks, never an address. Closed with grove_close.</summary>
    public sealed class GroveGraphHandle : SafeHandleZeroOrMinusOneIsInvalid
    {
        GroveGraphHandle() : base(true) { }

        protected override bool ReleaseHandle()
        {
            GroveNative.Close(handle);
            return true;
        }
    }

    /// <summary>A grove_session *: closed with grove_session_close (which joins the session's workers).</summary>
    public sealed class GroveSessionHandle : SafeHandleZeroOrMinusOneIsInvalid
    {
        GroveSessionHandle() : base(true) { }

        protected override bool ReleaseHandle()
        {
            GroveNative.SessionClose(handle);
            return true;
        }
    }

    /// <summary>UTF-8 in and out of libgrove, whatever the platform's ANSI code page is.</summary>
    static class GroveUtf8
    {
        /// <summary>The text's UTF-8 bytes and a NUL. A NUL inside the text would cut it short in C: refused.</summary>
        public static byte[] Terminated(string text, string what)
        {
            if (text == null)
                throw new ArgumentNullException(what);
            if (text.IndexOf('\0') >= 0)
                throw new ArgumentException(what + " contains a NUL character", what);
            var bytes = new byte[Encoding.UTF8.GetByteCount(text) + 1];
            Encoding.UTF8.GetBytes(text, 0, text.Length, bytes, 0);
            return bytes;
        }

        /// <summary>A NUL-terminated UTF-8 string libgrove returned (null for IntPtr.Zero).</summary>
        public static string FromNative(IntPtr text)
        {
            if (text == IntPtr.Zero)
                return null;
            int length = 0;
            while (Marshal.ReadByte(text, length) != 0)
                ++length;
            var bytes = new byte[length];
            Marshal.Copy(text, bytes, 0, length);
            return Encoding.UTF8.GetString(bytes);
        }

        /// <summary>The message libgrove wrote into an error buffer (up to its NUL).</summary>
        public static string FromBuffer(byte[] buffer)
        {
            int length = Array.IndexOf(buffer, (byte)0);
            return Encoding.UTF8.GetString(buffer, 0, length < 0 ? buffer.Length : length);
        }

        public static string LastError()
        {
            return FromNative(GroveNative.LastError()) ?? "";
        }
    }

    /// <summary>Strings in unmanaged memory for a struct's const char * fields, freed on Dispose.</summary>
    sealed class GroveNativeStrings : IDisposable
    {
        readonly System.Collections.Generic.List<IntPtr> allocated = new System.Collections.Generic.List<IntPtr>();

        public IntPtr Add(string text, string what)
        {
            byte[] bytes = GroveUtf8.Terminated(text, what);
            IntPtr copy = Marshal.AllocHGlobal(bytes.Length);
            allocated.Add(copy);
            Marshal.Copy(bytes, 0, copy, bytes.Length);
            return copy;
        }

        /// <summary>An array of const char * for the texts; IntPtr.Zero for none.</summary>
        public IntPtr AddArray(string[] texts, string what)
        {
            if (texts == null || texts.Length == 0)
                return IntPtr.Zero;
            IntPtr array = Marshal.AllocHGlobal(IntPtr.Size * texts.Length);
            allocated.Add(array);
            for (int k = 0; k < texts.Length; ++k)
                Marshal.WriteIntPtr(array, k * IntPtr.Size, Add(texts[k], what + "[" + k + "]"));
            return array;
        }

        public void Dispose()
        {
            foreach (IntPtr p in allocated)
                Marshal.FreeHGlobal(p);
            allocated.Clear();
        }
    }
}
