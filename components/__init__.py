"""Streamlit UI building blocks. Imports ``memscope``; ``memscope`` never imports these."""
