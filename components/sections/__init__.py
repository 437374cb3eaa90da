"""Page sections: each draws one part of a page from the app context; pages only arrange them."""
